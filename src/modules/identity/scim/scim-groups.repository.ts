import { sql, type Transaction } from 'kysely';
import type { EntityAssignment, NamedAssignment } from '../../../platform/auth/principal.js';
import { countRows } from '../../../platform/db/page-queries.js';
import type { DB, Executor } from '../../../platform/db/schema.js';
import type { ScimGroupRole } from '../../../platform/db/tables/scim.js';

/** A group with its mapping (role, named entity assignments) and its member count: one statement. */
function groupQuery(db: Executor, enterpriseId: string) {
  return db
    .selectFrom('scim_groups as g')
    .select([
      'g.id',
      'g.display_name',
      'g.external_id',
      'g.role',
      'g.created_at',
      'g.updated_at',
      'g.row_version',
      sql<NamedAssignment[]>`(
        select coalesce(json_agg(json_build_object('legal_entity_id', a.legal_entity_id, 'name', le.name,
          'business_unit_id', a.business_unit_id, 'business_unit_name', bu.name) order by le.name, bu.name nulls first), '[]'::json)
        from scim_group_entities a
        join legal_entities le on le.enterprise_id = a.enterprise_id and le.id = a.legal_entity_id
        left join business_units bu on bu.enterprise_id = a.enterprise_id and bu.id = a.business_unit_id
        where a.enterprise_id = g.enterprise_id and a.group_id = g.id)`.as('entity_assignments'),
      sql<number>`(select count(*)::int from scim_group_members m where m.enterprise_id = g.enterprise_id and m.group_id = g.id)`.as('member_count'),
    ])
    .where('g.enterprise_id', '=', enterpriseId);
}

export type GroupRow = Awaited<ReturnType<ReturnType<typeof groupQuery>['executeTakeFirstOrThrow']>>;

export async function listGroups(db: Executor, enterpriseId: string, displayName: string | null, limit: number, offset: number) {
  let query = groupQuery(db, enterpriseId);
  if (displayName !== null) query = query.where(sql`lower(g.display_name)`, '=', displayName.toLowerCase());
  return query.orderBy(sql`lower(g.display_name)`).orderBy('g.id').limit(limit).offset(offset).execute();
}

export async function countGroups(db: Executor, enterpriseId: string, displayName: string | null): Promise<number> {
  let query = db.selectFrom('scim_groups as g').where('g.enterprise_id', '=', enterpriseId);
  if (displayName !== null) query = query.where(sql`lower(g.display_name)`, '=', displayName.toLowerCase());
  return countRows(query);
}

export async function findGroup(db: Executor, enterpriseId: string, id: string) {
  return groupQuery(db, enterpriseId).where('g.id', '=', id).executeTakeFirst();
}

export async function lockGroup(trx: Transaction<DB>, enterpriseId: string, id: string) {
  return groupQuery(trx, enterpriseId).where('g.id', '=', id).forUpdate('g').executeTakeFirst();
}

export async function insertGroup(trx: Transaction<DB>, enterpriseId: string, values: { display_name: string; external_id: string | null }) {
  return trx.insertInto('scim_groups').values({ ...values, enterprise_id: enterpriseId }).returning('id').executeTakeFirstOrThrow();
}

export async function updateGroup(trx: Transaction<DB>, enterpriseId: string, id: string, changes: Partial<{ display_name: string; external_id: string | null; role: ScimGroupRole | null }>) {
  await trx.updateTable('scim_groups').set({ ...changes, updated_at: new Date() }).where('enterprise_id', '=', enterpriseId).where('id', '=', id).execute();
}

export async function deleteGroup(trx: Transaction<DB>, enterpriseId: string, id: string) {
  await trx.deleteFrom('scim_groups').where('enterprise_id', '=', enterpriseId).where('id', '=', id).execute();
}

export async function replaceGroupAssignments(trx: Transaction<DB>, enterpriseId: string, groupId: string, assignments: readonly EntityAssignment[]) {
  await trx.deleteFrom('scim_group_entities').where('enterprise_id', '=', enterpriseId).where('group_id', '=', groupId).execute();
  if (assignments.length > 0) {
    await trx.insertInto('scim_group_entities').values(assignments.map((a) => ({ ...a, enterprise_id: enterpriseId, group_id: groupId }))).execute();
  }
}

export async function groupMembers(db: Executor, enterpriseId: string, groupId: string) {
  return db
    .selectFrom('scim_group_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.user_id', 'u.email'])
    .where('m.enterprise_id', '=', enterpriseId)
    .where('m.group_id', '=', groupId)
    .orderBy('u.email')
    .execute();
}

export async function addGroupMembers(trx: Transaction<DB>, enterpriseId: string, groupId: string, userIds: readonly string[]) {
  if (userIds.length === 0) return;
  await trx
    .insertInto('scim_group_members')
    .values(userIds.map((user_id) => ({ enterprise_id: enterpriseId, group_id: groupId, user_id })))
    .onConflict((oc) => oc.columns(['group_id', 'user_id', 'enterprise_id']).doNothing())
    .execute();
}

export async function removeGroupMembers(trx: Transaction<DB>, enterpriseId: string, groupId: string, userIds: readonly string[] | 'all') {
  let query = trx.deleteFrom('scim_group_members').where('enterprise_id', '=', enterpriseId).where('group_id', '=', groupId);
  if (userIds !== 'all') {
    if (userIds.length === 0) return;
    query = query.where('user_id', 'in', userIds);
  }
  await query.execute();
}

/** For each user, the mapped groups they are in: role and assignments (the input of role derivation). */
export async function mappedGroupsOf(db: Executor, enterpriseId: string, userIds: readonly string[]) {
  if (userIds.length === 0) return [];
  return db
    .selectFrom('scim_group_members as m')
    .innerJoin('scim_groups as g', (join) => join.onRef('g.id', '=', 'm.group_id').onRef('g.enterprise_id', '=', 'm.enterprise_id'))
    .select([
      'm.user_id',
      'g.role',
      sql<EntityAssignment[]>`(select coalesce(json_agg(json_build_object('legal_entity_id', a.legal_entity_id, 'business_unit_id', a.business_unit_id)), '[]'::json)
        from scim_group_entities a where a.enterprise_id = g.enterprise_id and a.group_id = g.id)`.as('assignments'),
    ])
    .where('m.enterprise_id', '=', enterpriseId)
    .where('m.user_id', 'in', userIds)
    .where('g.role', 'is not', null)
    .execute();
}

/** The members of groups, for a change that touches the groups (a mapping, a deletion). */
export async function memberIdsOf(db: Executor, enterpriseId: string, groupId: string): Promise<string[]> {
  const rows = await db.selectFrom('scim_group_members').select('user_id').where('enterprise_id', '=', enterpriseId).where('group_id', '=', groupId).execute();
  return rows.map((row) => row.user_id);
}
