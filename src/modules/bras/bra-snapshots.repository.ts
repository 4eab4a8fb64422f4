import type { Executor } from '../../platform/db/schema.js';
import type { SnapshotKind } from '../../platform/db/tables/bras.js';

/** Snapshots are written once and only read afterwards (triggers refuse UPDATE, DELETE, TRUNCATE). */

export async function insertSnapshot(
  db: Executor,
  enterpriseId: string,
  values: { id: string; bra_id: string; kind: SnapshotKind; content: unknown; methodology: unknown; created_by: string },
) {
  return db
    .insertInto('bra_snapshots')
    .values({
      enterprise_id: enterpriseId,
      ...values,
      content: JSON.stringify(values.content),
      methodology: JSON.stringify(values.methodology),
    })
    .returning(['id', 'kind', 'created_at', 'created_by'])
    .executeTakeFirstOrThrow();
}

export async function listSnapshots(db: Executor, enterpriseId: string, braId: string) {
  return db
    .selectFrom('bra_snapshots')
    .select(['id', 'kind', 'created_at', 'created_by'])
    .where('enterprise_id', '=', enterpriseId)
    .where('bra_id', '=', braId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export async function findSnapshot(db: Executor, enterpriseId: string, braId: string, snapshotId: string) {
  return db
    .selectFrom('bra_snapshots')
    .select(['id', 'kind', 'created_at', 'created_by', 'content', 'methodology'])
    .where('enterprise_id', '=', enterpriseId)
    .where('bra_id', '=', braId)
    .where('id', '=', snapshotId)
    .executeTakeFirst();
}
