import type { Transaction } from 'kysely';
import { assignmentKey, type EntityAssignment } from '../../../platform/auth/principal.js';
import type { DB, Executor } from '../../../platform/db/schema.js';

const ROLE_COLUMNS = ['r.id', 'r.user_id', 'r.legal_entity_id', 'r.business_unit_id', 'r.created_at'] as const;

export async function listEntityRoles(db: Executor, enterpriseId: string, userId: string) {
  return db
    .selectFrom('entity_roles as r')
    .innerJoin('legal_entities as le', (join) =>
      join.onRef('le.id', '=', 'r.legal_entity_id').onRef('le.enterprise_id', '=', 'r.enterprise_id'),
    )
    .leftJoin('business_units as bu', 'bu.id', 'r.business_unit_id')
    .select([...ROLE_COLUMNS, 'le.name as legal_entity_name', 'bu.name as business_unit_name'])
    .where('r.enterprise_id', '=', enterpriseId)
    .where('r.user_id', '=', userId)
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id', 'desc')
    .execute();
}

/**
 * The composite foreign keys check that the legal entity is the enterprise's and the unit the entity's
 * (entity_roles_legal_entity_fkey, entity_roles_business_unit_fkey → 400 INVALID_REFERENCE), and
 * entity_roles_assignment_key refuses the same assignment twice (409): all mapped centrally.
 */
export async function insertEntityRole(
  trx: Transaction<DB>,
  enterpriseId: string,
  values: { user_id: string; legal_entity_id: string; business_unit_id: string | null },
) {
  return trx
    .insertInto('entity_roles')
    .values({ enterprise_id: enterpriseId, ...values })
    .returning(['id', 'user_id', 'legal_entity_id', 'business_unit_id', 'created_at'])
    .executeTakeFirstOrThrow();
}

export async function deleteEntityRole(trx: Transaction<DB>, enterpriseId: string, userId: string, roleId: string) {
  return trx
    .deleteFrom('entity_roles as r')
    .where('r.enterprise_id', '=', enterpriseId)
    .where('r.user_id', '=', userId)
    .where('r.id', '=', roleId)
    .returning(ROLE_COLUMNS)
    .executeTakeFirst();
}

/** A member's entity roles become exactly `wanted` (a directory's group mapping); returns what was added and removed. */
export async function replaceEntityRoles(
  trx: Transaction<DB>,
  enterpriseId: string,
  userId: string,
  wanted: readonly EntityAssignment[],
) {
  const current = await trx
    .selectFrom('entity_roles')
    .select(['id', 'legal_entity_id', 'business_unit_id'])
    .where('enterprise_id', '=', enterpriseId)
    .where('user_id', '=', userId)
    .forUpdate()
    .execute();
  const wantedKeys = new Set(wanted.map(assignmentKey));
  const currentKeys = new Set(current.map(assignmentKey));
  const removed = current.filter((row) => !wantedKeys.has(assignmentKey(row)));
  const added = wanted.filter((row) => !currentKeys.has(assignmentKey(row)));
  if (removed.length > 0) {
    await trx.deleteFrom('entity_roles').where('enterprise_id', '=', enterpriseId).where('id', 'in', removed.map((row) => row.id)).execute();
  }
  if (added.length > 0) {
    await trx.insertInto('entity_roles').values(added.map((row) => ({ enterprise_id: enterpriseId, user_id: userId, ...row }))).execute();
  }
  return { added, removed: removed.map(({ legal_entity_id, business_unit_id }) => ({ legal_entity_id, business_unit_id })) };
}
