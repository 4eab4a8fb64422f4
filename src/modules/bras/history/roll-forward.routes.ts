import { callerOf } from '../../../platform/auth/principal.js';
import { termsOf, created } from '../../../platform/http/conditional/answers.js';
import type { App } from '../../../platform/module.js';
import { rollForwardSchema } from './roll-forward.schemas.js';
import type { RollForwardService } from './roll-forward.service.js';

/** The next period of an approved BRA. */
export function registerRollForwardRoutes(api: App, service: RollForwardService): void {
  api.post('/bras/:bra_id/roll-forward', { schema: rollForwardSchema, config: { idempotent: true } }, async (request, reply) =>
    created(reply, await service.rollForward(callerOf(request), request.params.bra_id, request.body, termsOf(request)), 'BRA rolled forward'));
}
