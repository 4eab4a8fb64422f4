import { callerOf } from '../../../platform/auth/principal.js';
import { termsOf, created } from '../../../platform/http/conditional/answers.js';
import type { App } from '../../../platform/module.js';
import { addCommentSchema, listCommentsSchema } from './comments.schemas.js';
import type { BraCommentsService } from './comments.service.js';

/** A BRA's review comments (issue 35): listed oldest first, appended, never changed. */
export function registerBraCommentRoutes(api: App, service: BraCommentsService): void {
  api.get('/bras/:bra_id/comments', { schema: listCommentsSchema }, async (request) => {
    const page = await service.list(callerOf(request), request.params.bra_id, request.query);
    return { ...page, message: 'Comments retrieved' };
  });

  api.post('/bras/:bra_id/comments', { schema: addCommentSchema, config: { idempotent: true } }, async (request, reply) =>
    created(reply, await service.add(callerOf(request), request.params.bra_id, request.body, termsOf(request)), 'Comment added'));
}
