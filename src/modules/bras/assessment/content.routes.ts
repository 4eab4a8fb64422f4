import { callerOf } from '../../../platform/auth/principal.js';
import { answer, answerMessage, termsOf, created } from '../../../platform/http/conditional/answers.js';
import type { App } from '../../../platform/module.js';
import {
  addScenarioSchema,
  linkControlSchema,
  listControlsSchema,
  listRatingsSchema,
  listScenariosSchema,
  recordRatingSchema,
  unlinkControlSchema,
  updateScenarioSchema,
} from './content.schemas.js';
import type { BraContentService } from './content.service.js';

/** A BRA's scenarios, ratings and control links (D6.4–D6.6; control links per scenario, and their removal). */
export function registerBraContentRoutes(api: App, service: BraContentService): void {
  api.get('/bras/:bra_id/scenarios', { schema: listScenariosSchema }, async (request) => ({
    data: await service.listScenarios(callerOf(request), request.params.bra_id),
  }));

  api.post('/bras/:bra_id/scenarios', { schema: addScenarioSchema, config: { idempotent: true } }, async (request, reply) =>
    created(reply, await service.addScenario(callerOf(request), request.params.bra_id, request.body, termsOf(request)), 'Scenario added'));

  api.patch('/bras/:bra_id/scenarios/:link_id', { schema: updateScenarioSchema, config: { ifMatch: true } }, async (request) =>
    answer(request, await service.updateScenario(callerOf(request), request.params.bra_id, request.params.link_id, request.body.included, termsOf(request)), 'Scenario updated'),
  );

  api.get('/bras/:bra_id/ratings', { schema: listRatingsSchema }, async (request) => ({
    data: await service.listRatings(callerOf(request), request.params.bra_id, request.query.history === true),
  }));

  api.post('/bras/:bra_id/ratings', { schema: recordRatingSchema, config: { idempotent: true } }, async (request, reply) =>
    created(reply, await service.recordRating(callerOf(request), request.params.bra_id, request.body, termsOf(request)), 'Rating recorded'));

  api.get('/bras/:bra_id/controls', { schema: listControlsSchema }, async (request) => ({
    data: await service.listControls(callerOf(request), request.params.bra_id),
  }));

  api.post('/bras/:bra_id/controls', { schema: linkControlSchema, config: { idempotent: true } }, async (request, reply) =>
    created(reply, await service.linkControl(callerOf(request), request.params.bra_id, request.body, termsOf(request)), 'Control linked'));

  api.delete('/bras/:bra_id/controls/:link_id', { schema: unlinkControlSchema, config: { ifMatch: true } }, async (request) => {
    return answerMessage(request, await service.unlinkControl(callerOf(request), request.params.bra_id, request.params.link_id, termsOf(request)), 'Control link removed');
  });
}
