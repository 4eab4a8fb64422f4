import { callerOf } from '../../../platform/auth/principal.js';
import { answer, created, termsOf } from '../../../platform/http/conditional/answers.js';
import type { App } from '../../../platform/module.js';
import { acceptRiskSchema, getAcceptanceSchema, listAcceptancesSchema, renewAcceptanceSchema, revokeAcceptanceSchema } from '../acceptance/acceptances.schemas.js';
import type { RiskAcceptancesService } from './acceptances.service.js';

/** Risk acceptance (issue 48): accepted from a BRA's scenario, renewed and revoked by id, listed across BRAs. */
export function registerRiskAcceptanceRoutes(api: App, service: RiskAcceptancesService): void {
  api.post('/bras/:bra_id/scenarios/:scenario_id/acceptances', { schema: acceptRiskSchema, config: { idempotent: true } }, async (request, reply) =>
    created(reply, await service.accept(callerOf(request), request.params.bra_id, request.params.scenario_id, request.body, termsOf(request)), 'Risk accepted'));

  api.get('/risk-acceptances', { schema: listAcceptancesSchema }, async (request) => ({
    ...(await service.list(callerOf(request), request.query)),
    message: 'Risk acceptances retrieved',
  }));

  api.get('/risk-acceptances/:acceptance_id', { schema: getAcceptanceSchema, config: { etag: true } }, async (request) =>
    answer(request, await service.get(callerOf(request), request.params.acceptance_id), 'Risk acceptance retrieved'));

  api.post('/risk-acceptances/:acceptance_id/renew', { schema: renewAcceptanceSchema, config: { idempotent: true } }, async (request, reply) =>
    created(reply, await service.renew(callerOf(request), request.params.acceptance_id, request.body, termsOf(request)), 'Risk acceptance renewed'));

  api.post('/risk-acceptances/:acceptance_id/revoke', { schema: revokeAcceptanceSchema, config: { ifMatch: true } }, async (request) =>
    answer(request, await service.revoke(callerOf(request), request.params.acceptance_id, request.body, termsOf(request)), 'Risk acceptance revoked'));
}
