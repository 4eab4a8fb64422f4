import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Caller } from '../../platform/auth/principal.js';
import type { DB, Executor } from '../../platform/db/schema.js';
import type { SnapshotKind } from '../../platform/db/tables/bras.js';
import { notFound } from '../../platform/http/errors.js';
import { readableBra } from './bra-access.js';
import { loadBraDetail, methodologyOf, type Methodology } from './bra-detail.js';
import { findBra } from './bras.repository.js';
import { findSnapshot, insertSnapshot, listSnapshotActions, listSnapshots } from './bra-snapshots.repository.js';
import type { SnapshotAction } from './bra-content.schemas.js';
import { currentSnapshotContent, type StoredContent } from './snapshot-content.js';
import type { BraDetailView } from './bras.schemas.js';

/**
 * Takes a snapshot (D6.10) inside the caller's transaction: the get-BRA data as it now is, its mitigation
 * actions, and the methodology it was computed under (risk bands and the applicable appetite, copied). Approval passes
 * the id it has already written into bras.snapshot_id, so the content carries it.
 */
export async function takeSnapshot(
  trx: Transaction<DB>,
  target: { enterpriseId: string; braId: string; takenBy: string },
  kind: SnapshotKind,
  snapshotId: string = randomUUID(),
): Promise<{ id: string; content: BraDetailView }> {
  const { enterpriseId, braId } = target;
  const bra = await findBra(trx, enterpriseId, braId);
  if (bra === undefined) throw new Error(`BRA ${braId} vanished while its snapshot was taken`);
  const methodology = await methodologyOf(trx, bra);
  const content = await loadBraDetail(trx, enterpriseId, braId, methodology.appetite.threshold_value);
  const actions = await listSnapshotActions(trx, enterpriseId, braId);
  await insertSnapshot(trx, enterpriseId, { id: snapshotId, bra_id: braId, kind, content, methodology, actions, created_by: target.takenBy });
  return { id: snapshotId, content };
}

export function createBraSnapshotsService({ db }: { db: Executor }) {
  return {
    async listSnapshots(caller: Caller, braId: string) {
      const bra = await readableBra(db, caller, braId);
      return listSnapshots(db, bra.enterprise_id, bra.id);
    },

    async getSnapshot(caller: Caller, braId: string, snapshotId: string) {
      const bra = await readableBra(db, caller, braId);
      const snapshot = await findSnapshot(db, bra.enterprise_id, bra.id, snapshotId);
      if (snapshot === undefined) throw notFound('Snapshot');
      // Written by takeSnapshot from these types (older ones from their earlier shape); jsonb hands them back as stored.
      return {
        ...snapshot,
        content: currentSnapshotContent(snapshot.content as StoredContent),
        methodology: snapshot.methodology as Methodology,
        actions: (snapshot.actions ?? null) as SnapshotAction[] | null,
      };
    },
  };
}

export type BraSnapshotsService = ReturnType<typeof createBraSnapshotsService>;
