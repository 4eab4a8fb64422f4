import { sql, type Transaction } from 'kysely';
import type { DB, Executor } from '../../../platform/db/schema.js';
import type { MemberRole } from '../../../platform/db/tables/users.js';

export interface AssignmentRow {
  legal_entity_id: string;
  name: string;
  business_unit_id: string | null;
  business_unit_name: string | null;
}

/**
 * The enterprise's members with their entity assignments aggregated in the same statement (one
 * correlated json_agg per member row, on the entity_roles user index): no query per user.
 */
export async function listMembers(db: Executor, enterpriseId: string, includeInactive: boolean) {
  let query = db
    .selectFrom('enterprise_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select((eb) => [
      'm.id',
      'm.user_id',
      'u.email',
      'u.full_name',
      'm.role',
      'm.created_at',
      'u.last_sign_in_at',
      'm.active',
      'm.deactivated_at',
      eb
        .selectFrom('entity_roles as r')
        .innerJoin('legal_entities as le', (join) =>
          join.onRef('le.id', '=', 'r.legal_entity_id').onRef('le.enterprise_id', '=', 'r.enterprise_id'),
        )
        .leftJoin('business_units as bu', 'bu.id', 'r.business_unit_id')
        .select(
          sql<AssignmentRow[]>`coalesce(json_agg(json_build_object(
            'legal_entity_id', r.legal_entity_id, 'name', le.name,
            'business_unit_id', r.business_unit_id, 'business_unit_name', bu.name
          ) order by le.name, bu.name nulls first), '[]'::json)`.as('assignments'),
        )
        .whereRef('r.user_id', '=', 'm.user_id')
        .whereRef('r.enterprise_id', '=', 'm.enterprise_id')
        .as('entity_assignments'),
    ])
    .where('m.enterprise_id', '=', enterpriseId);
  if (!includeInactive) query = query.where('m.active', '=', true);
  return query.orderBy('m.created_at', 'desc').orderBy('m.id', 'desc').execute();
}

export async function insertMember(trx: Transaction<DB>, enterpriseId: string, userId: string, role: MemberRole) {
  return trx
    .insertInto('enterprise_members')
    .values({ enterprise_id: enterpriseId, user_id: userId, role })
    .returning(['id', 'role', 'created_at'])
    .executeTakeFirstOrThrow();
}

/**
 * The user's active membership, in the given enterprise or (null: a super admin's reach) in any.
 * `lock` takes the row lock a deactivation needs against a concurrent one.
 */
export async function findActiveMember(db: Executor, enterpriseId: string | null, userId: string, lock = false) {
  let query = db
    .selectFrom('enterprise_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.id', 'm.enterprise_id', 'm.user_id', 'm.role', 'u.email'])
    .where('m.user_id', '=', userId)
    .where('m.active', '=', true)
    .where('u.active', '=', true);
  if (enterpriseId !== null) query = query.where('m.enterprise_id', '=', enterpriseId);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function deactivateMember(trx: Transaction<DB>, enterpriseId: string, memberId: string, at: Date) {
  await trx
    .updateTable('enterprise_members')
    .set({ active: false, deactivated_at: at })
    .where('enterprise_id', '=', enterpriseId)
    .where('id', '=', memberId)
    .execute();
}
