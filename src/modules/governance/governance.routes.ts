import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { callerOf } from '../../platform/auth/principal.js';
import { answer, termsOf } from '../../platform/http/conditional/answers.js';
import type { App } from '../../platform/module.js';
import { appetiteHistorySchema, deleteAppetiteSchema, listAppetitesSchema, upsertAppetiteSchema } from './risk-appetite.schemas.js';
import type { RiskAppetiteService } from './risk-appetite.service.js';

/** Governance (4.5): risk appetites per scope and their change history. */
export function registerGovernanceRoutes(app: App, appetites: RiskAppetiteService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get('/governance/risk-appetite', { schema: listAppetitesSchema }, async (request) => ({
    data: await appetites.list(callerOf(request), request.query),
  }));

  api.post('/governance/risk-appetite', { schema: upsertAppetiteSchema, config: { ifMatch: true, idempotent: true } }, async (request, reply) => {
    const result = await appetites.upsert(callerOf(request), request.body, termsOf(request));
    const { created, record } = result.data;
    return reply.code(created ? 201 : 200).send(answer(request, { data: record, state: result.state }, created ? 'Risk appetite created' : 'Risk appetite updated'));
  });

  api.delete('/governance/risk-appetite/:risk_appetite_id', { schema: deleteAppetiteSchema, config: { ifMatch: true } }, async (request) => {
    await appetites.remove(callerOf(request), request.params.risk_appetite_id, termsOf(request));
    return { message: 'Risk appetite override deleted' };
  });

  api.get('/governance/risk-appetite/history', { schema: appetiteHistorySchema }, async (request) => ({
    data: await appetites.history(callerOf(request), request.query),
  }));
}
