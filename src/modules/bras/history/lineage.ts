import type { Executor } from '../../../platform/db/schema.js';
import { findBra } from '../bras.repository.js';

/**
 * The snapshot a BRA inherits: after a roll-forward, the approval snapshot of the approved BRA it started
 * from (what its diff compares a period against). Null for any other BRA. An approved BRA never changes
 * again, so this id is fixed once the roll-forward commits.
 */
export async function inheritedSnapshotId(db: Executor, bra: { enterprise_id: string; rolled_from_bra_id: string | null }): Promise<string | null> {
  if (bra.rolled_from_bra_id === null) return null;
  const source = await findBra(db, bra.enterprise_id, bra.rolled_from_bra_id);
  return source?.snapshot_id ?? null;
}
