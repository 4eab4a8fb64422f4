import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Caller } from '../../../platform/auth/principal.js';
import type { DB, Executor } from '../../../platform/db/schema.js';
import type { SnapshotKind } from '../../../platform/db/tables/bras.js';
import { notFound } from '../../../platform/errors/app-error.js';
import { readableBra } from '../access.js';
import { loadBraDetail, methodologyOf, type Methodology } from '../answer/detail.js';
import { findBra } from '../bras.repository.js';
import { APPROVED, hasStatus } from '../bras.lifecycle.js';
import { findSnapshot, insertSnapshot, listSnapshotActions, listSnapshots } from './snapshots.repository.js';
import type { SnapshotAction } from './snapshots.schemas.js';
import { inheritedSnapshotId } from './lineage.js';
import { withCreatorNames } from '../answer/people.js';
import { currentSnapshotContent, type StoredContent } from './snapshot-content.js';
import type { BraDetailView } from '../bras.schemas.js';
import { evidenceOfBra } from '../../evidence/bra-evidence.repository.js';

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
  const content = await contentWithEvidence(trx, enterpriseId, braId, methodology.appetite.threshold_value);
  const actions = await listSnapshotActions(trx, enterpriseId, braId);
  await insertSnapshot(trx, enterpriseId, { id: snapshotId, bra_id: braId, kind, content, methodology, actions, created_by: target.takenBy });
  return { id: snapshotId, content };
}

/** The get-BRA data with the evidence it covers (issue 48): what a snapshot stores and a live report prints. */
async function contentWithEvidence(db: Executor, enterpriseId: string, braId: string, threshold: number): Promise<BraDetailView> {
  const [detail, evidence] = await Promise.all([loadBraDetail(db, enterpriseId, braId, threshold), evidenceOfBra(db, enterpriseId, braId)]);
  return { ...detail, evidence };
}

/** What a BRA's report is built from: its approval snapshot, or for any other state its live data. */
export interface ReportSource {
  basis: 'approval_snapshot' | 'live';
  /** The approval snapshot; null for live data. */
  snapshot_id: string | null;
  /** When the snapshot was taken, or when the live data was read. */
  as_of: Date;
  content: BraDetailView;
  methodology: Methodology;
  actions: SnapshotAction[];
}

export function createBraSnapshotsService({ db }: { db: Executor }) {
  return {
    /**
     * The content of a BRA's report, for whoever may read the BRA: an approved BRA's approval snapshot
     * (the same report whatever changed since), else the BRA as it now is.
     */
    async reportSource(caller: Caller, braId: string, now = new Date()): Promise<ReportSource> {
      const bra = await readableBra(db, caller, braId);
      if (hasStatus(bra, APPROVED) && bra.snapshot_id !== null) {
        const snapshot = await findSnapshot(db, bra.enterprise_id, bra.id, bra.snapshot_id);
        if (snapshot === undefined) throw new Error(`The approval snapshot of BRA ${bra.id} is missing`);
        const methodology = snapshot.methodology as Methodology;
        return {
          basis: 'approval_snapshot',
          snapshot_id: snapshot.id,
          as_of: snapshot.created_at,
          content: currentSnapshotContent(snapshot.content as StoredContent, methodology),
          methodology,
          actions: (snapshot.actions ?? []) as SnapshotAction[],
        };
      }
      const methodology = await methodologyOf(db, bra);
      const [content, actions] = await Promise.all([
        contentWithEvidence(db, bra.enterprise_id, bra.id, methodology.appetite.threshold_value),
        listSnapshotActions(db, bra.enterprise_id, bra.id),
      ]);
      return { basis: 'live', snapshot_id: null, as_of: now, content, methodology, actions };
    },

    async listSnapshots(caller: Caller, braId: string) {
      const bra = await readableBra(db, caller, braId);
      return withCreatorNames(db, await listSnapshots(db, bra.enterprise_id, bra.id, await inheritedSnapshotId(db, bra)));
    },

    async getSnapshot(caller: Caller, braId: string, snapshotId: string) {
      const bra = await readableBra(db, caller, braId);
      const snapshot = await findSnapshot(db, bra.enterprise_id, bra.id, snapshotId, await inheritedSnapshotId(db, bra));
      if (snapshot === undefined) throw notFound('Snapshot');
      // Written by takeSnapshot from these types (older ones from their earlier shape); jsonb hands them back as stored.
      const methodology = snapshot.methodology as Methodology;
      const [named] = await withCreatorNames(db, [snapshot]);
      return {
        ...named!,
        content: currentSnapshotContent(snapshot.content as StoredContent, methodology),
        methodology,
        actions: (snapshot.actions ?? null) as SnapshotAction[] | null,
      };
    },
  };
}

export type BraSnapshotsService = ReturnType<typeof createBraSnapshotsService>;
