import type { Caller } from '../../../platform/auth/principal.js';
import type { Executor } from '../../../platform/db/schema.js';
import { AppError } from '../../../platform/errors/app-error.js';
import { readableBra } from '../access.js';
import { loadBraDetail, methodologyOf } from '../answer/detail.js';
import { diffBra, isEmptyDiff, type DiffSide } from './diff.js';
import type { BraDiffQuery, BraDiffView } from './diff.schemas.js';
import { findSnapshot } from './snapshots.repository.js';
import type { BraRow } from '../bras.repository.js';
import { inheritedSnapshotId } from './lineage.js';
import { currentSnapshotContent, type StoredContent } from './snapshot-content.js';

type End = BraDiffView['from'];

/**
 * The diff of a BRA (bras.diff): two of the snapshots its list gives (its own, and the one it inherits from a
 * roll-forward), or one and its live content built as takeSnapshot builds a snapshot (the same get-BRA data
 * and methodology). Read-only.
 */
export function createBraDiffService({ db }: { db: Executor }) {
  async function snapshotSide(bra: BraRow, inherited: string | null, snapshotId: string, field: 'from' | 'to'): Promise<[End, DiffSide]> {
    const snapshot = await findSnapshot(db, bra.enterprise_id, bra.id, snapshotId, inherited);
    if (snapshot === undefined) {
      throw new AppError('INVALID_REFERENCE', `${field} does not refer to a snapshot of this BRA (GET /bras/${bra.id}/snapshots lists them)`, { field });
    }
    const content = currentSnapshotContent(snapshot.content as StoredContent);
    return [
      { kind: snapshot.kind, snapshot_id: snapshot.id, bra_id: snapshot.bra_id, as_of: snapshot.created_at },
      { content, methodology: snapshot.methodology as DiffSide['methodology'] },
    ];
  }

  async function liveSide(bra: BraRow, now: Date): Promise<[End, DiffSide]> {
    const methodology = await methodologyOf(db, bra);
    const content = await loadBraDetail(db, bra.enterprise_id, bra.id, methodology.appetite.threshold_value);
    return [{ kind: 'current', snapshot_id: null, bra_id: bra.id, as_of: now }, { content, methodology }];
  }

  return {
    async diff(caller: Caller, braId: string, query: BraDiffQuery, now = new Date()): Promise<BraDiffView> {
      const bra = await readableBra(db, caller, braId);
      const inherited = await inheritedSnapshotId(db, bra);
      const [fromEnd, from] = await snapshotSide(bra, inherited, query.from, 'from');
      const [toEnd, to] = query.to === 'current' ? await liveSide(bra, now) : await snapshotSide(bra, inherited, query.to, 'to');
      const changes = diffBra(from, to);
      return { bra_id: bra.id, from: fromEnd, to: toEnd, empty: isEmptyDiff(changes), ...changes };
    },
  };
}

export type BraDiffService = ReturnType<typeof createBraDiffService>;
