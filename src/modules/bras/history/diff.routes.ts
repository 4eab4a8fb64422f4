import { callerOf } from '../../../platform/auth/principal.js';
import type { App } from '../../../platform/module.js';
import { braDiffSchema } from './diff.schemas.js';
import type { BraDiffService } from './diff.service.js';

/** What changed in a BRA between two snapshots, or since one (read-only). */
export function registerBraDiffRoutes(api: App, service: BraDiffService): void {
  api.get('/bras/:bra_id/diff', { schema: braDiffSchema }, async (request) => ({
    data: await service.diff(callerOf(request), request.params.bra_id, request.query),
    message: 'Diff computed',
  }));
}
