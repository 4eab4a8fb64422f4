import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { App } from '../../platform/module.js';
import { callerOf } from '../../platform/auth/principal.js';
import { answer, termsOf, created } from '../../platform/http/conditional/answers.js';
import { archiveRiskScenarioSchema, createRiskScenarioSchema, listRiskScenariosSchema, updateRiskScenarioSchema } from './risk-scenarios.schemas.js';
import type { RiskScenariosService } from './risk-scenarios.service.js';

export function registerRiskScenarioRoutes(app: App, service: RiskScenariosService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    '/risk-scenarios',
    { schema: listRiskScenariosSchema },
    async (request) => service.list(callerOf(request), request.query),
  );

  api.post(
    '/risk-scenarios',
    { schema: createRiskScenarioSchema, config: { idempotent: true } },
    async (request, reply) =>
      created(reply, await service.add(callerOf(request), request.body, termsOf(request)), 'Risk scenario created'),
  );

  api.patch('/risk-scenarios/:id', { schema: updateRiskScenarioSchema, config: { ifMatch: true } }, async (request) =>
    answer(request, await service.update(callerOf(request), request.params.id, request.body, termsOf(request)), 'Risk scenario updated'),
  );

  api.post('/risk-scenarios/:id/archive', { schema: archiveRiskScenarioSchema, config: { ifMatch: true } }, async (request) =>
    answer(request, await service.archive(callerOf(request), request.params.id, termsOf(request)), 'Risk scenario archived'),
  );
}
