import { callerOf } from '../../../platform/auth/principal.js';
import type { App } from '../../../platform/module.js';
import { getSnapshotSchema, listSnapshotsSchema } from './snapshots.schemas.js';
import type { BraSnapshotsService } from './snapshots.service.js';

/** A BRA's snapshots (D6.10): read-only, taken at creation and approval. */
export function registerBraSnapshotRoutes(api: App, service: BraSnapshotsService): void {
  api.get('/bras/:bra_id/snapshots', { schema: listSnapshotsSchema }, async (request) => ({
    data: await service.listSnapshots(callerOf(request), request.params.bra_id),
  }));

  api.get('/bras/:bra_id/snapshots/:snapshot_id', { schema: getSnapshotSchema, config: { etag: true } }, async (request) => ({
    data: await service.getSnapshot(callerOf(request), request.params.bra_id, request.params.snapshot_id),
    message: 'Snapshot retrieved',
  }));
}
