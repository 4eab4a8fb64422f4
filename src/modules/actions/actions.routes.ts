import type { App } from '../../platform/module.js';
import { callerOf } from '../../platform/auth/principal.js';
import { answer, answerMessage, termsOf, created } from '../../platform/http/conditional/answers.js';
import {
  archiveActionSchema,
  bulkUpdateActionsSchema,
  createActionSchema,
  listActionsSchema,
  updateActionSchema,
} from './actions.schemas.js';
import type { ActionsService } from './actions.service.js';

/** Mitigation actions (4.4). */
export function registerActionRoutes(api: App, service: ActionsService): void {
  api.get('/mitigation-actions', { schema: listActionsSchema }, async (request) => service.list(callerOf(request), request.query));

  api.post('/mitigation-actions', { schema: createActionSchema, config: { idempotent: true } }, async (request, reply) =>
    created(reply, await service.create(callerOf(request), request.body, termsOf(request)), 'Mitigation action created'));

  api.patch('/mitigation-actions/:action_id', { schema: updateActionSchema, config: { ifMatch: true } }, async (request) => {
    return answer(request, await service.update(callerOf(request), request.params.action_id, request.body, termsOf(request)), 'Mitigation action updated');
  });

  api.post('/mitigation-actions/bulk-update', { schema: bulkUpdateActionsSchema, config: { idempotent: true } }, async (request) => {
    const data = await service.bulkUpdate(callerOf(request), request.body, termsOf(request));
    return { data, message: `${data.updated_count} mitigation actions updated` };
  });

  api.post('/mitigation-actions/:action_id/archive', { schema: archiveActionSchema, config: { ifMatch: true } }, async (request) => {
    const result = await service.archive(callerOf(request), request.params.action_id, termsOf(request));
    return answerMessage(request, result, result.data.archived ? 'Mitigation action archived' : 'Mitigation action was already archived');
  });
}
