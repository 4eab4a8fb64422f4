import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { App, Platform } from '../../../app.js';
import { callerOf } from '../../../platform/auth/principal.js';
import { createRiskScenarioSchema, listRiskScenariosSchema } from './risk-scenarios.schemas.js';
import { addScenario, listCatalogue } from './risk-scenarios.service.js';

export function registerRiskScenarioRoutes(app: App, platform: Platform): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = platform.database;

  api.get(
    '/api/v1/risk-scenarios',
    { schema: listRiskScenariosSchema, config: { operation: 'risk_scenarios.list' } },
    async (request) => listCatalogue(db, callerOf(request), request.query),
  );

  api.post(
    '/api/v1/risk-scenarios',
    { schema: createRiskScenarioSchema, config: { operation: 'risk_scenarios.create' } },
    async (request, reply) => {
      const data = await addScenario(db, callerOf(request), request.body);
      return reply.code(201).send({ data, message: 'Risk scenario created' });
    },
  );
}
