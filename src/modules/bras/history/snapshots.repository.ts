import type { ExpressionBuilder } from 'kysely';
import type { DB, Executor } from '../../../platform/db/schema.js';
import type { SnapshotKind } from '../../../platform/db/tables/bras.js';

/** Snapshots are written once and only read afterwards (triggers refuse UPDATE, DELETE, TRUNCATE). */

export async function insertSnapshot(
  db: Executor,
  enterpriseId: string,
  values: { id: string; bra_id: string; kind: SnapshotKind; content: unknown; methodology: unknown; actions: unknown; created_by: string },
) {
  return db
    .insertInto('bra_snapshots')
    .values({
      enterprise_id: enterpriseId,
      ...values,
      content: JSON.stringify(values.content),
      methodology: JSON.stringify(values.methodology),
      actions: JSON.stringify(values.actions),
    })
    .returning(['id', 'kind', 'created_at', 'created_by'])
    .executeTakeFirstOrThrow();
}

/** A BRA's snapshots, and the one it inherits (the approval snapshot a roll-forward started from), when given. */
const ofBra = (braId: string, inherited: string | null) => (eb: ExpressionBuilder<DB, 'bra_snapshots'>) =>
  inherited === null ? eb('bra_id', '=', braId) : eb.or([eb('bra_id', '=', braId), eb('id', '=', inherited)]);

export async function listSnapshots(db: Executor, enterpriseId: string, braId: string, inherited: string | null = null) {
  return db
    .selectFrom('bra_snapshots')
    .select(['id', 'bra_id', 'kind', 'created_at', 'created_by'])
    .where('enterprise_id', '=', enterpriseId)
    .where(ofBra(braId, inherited))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export async function findSnapshot(db: Executor, enterpriseId: string, braId: string, snapshotId: string, inherited: string | null = null) {
  return db
    .selectFrom('bra_snapshots')
    .select(['id', 'bra_id', 'kind', 'created_at', 'created_by', 'content', 'methodology', 'actions'])
    .where('enterprise_id', '=', enterpriseId)
    .where(ofBra(braId, inherited))
    .where('id', '=', snapshotId)
    .executeTakeFirst();
}

/**
 * The BRA's mitigation actions (not archived) as a snapshot pins them: a read of the actions module's
 * table in one statement, oldest due first.
 */
export async function listSnapshotActions(db: Executor, enterpriseId: string, braId: string) {
  return db
    .selectFrom('mitigation_actions')
    .select(['id', 'action', 'owner', 'status', 'priority', 'action_type', 'due_date', 'bra_risk_scenario_id'])
    .where('enterprise_id', '=', enterpriseId)
    .where('bra_id', '=', braId)
    .where('archived', '=', false)
    .orderBy('due_date')
    .orderBy('id')
    .execute();
}
