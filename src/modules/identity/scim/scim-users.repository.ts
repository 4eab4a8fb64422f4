import { sql, type Transaction } from 'kysely';
import { countRows } from '../../../platform/db/page-queries.js';
import type { DB, Executor } from '../../../platform/db/schema.js';

export type UserFilter = { attribute: 'userName' | 'externalId' | 'id'; value: string } | null;

/**
 * The enterprise's members as SCIM users: identity, membership, the directory's externalId and the groups
 * it pushed, in one statement (no query per user).
 */
function userQuery(db: Executor, enterpriseId: string) {
  return db
    .selectFrom('enterprise_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .leftJoin('scim_users as s', (join) => join.onRef('s.user_id', '=', 'm.user_id').onRef('s.enterprise_id', '=', 'm.enterprise_id'))
    .select([
      'm.user_id as id',
      'm.id as member_id',
      'm.role',
      'u.email',
      'u.full_name',
      sql<boolean>`m.active and u.active`.as('active'),
      'm.active as member_active',
      'u.active as user_active',
      's.external_id',
      'm.created_at',
      sql<Date>`greatest(u.updated_at, coalesce(s.updated_at, u.updated_at))`.as('updated_at'),
      sql<{ value: string; display: string }[]>`(
        select coalesce(json_agg(json_build_object('value', g.id, 'display', g.display_name) order by g.display_name), '[]'::json)
        from scim_group_members gm join scim_groups g on g.id = gm.group_id and g.enterprise_id = gm.enterprise_id
        where gm.enterprise_id = m.enterprise_id and gm.user_id = m.user_id)`.as('groups'),
    ])
    .where('m.enterprise_id', '=', enterpriseId);
}

export type ScimUserRow = Awaited<ReturnType<ReturnType<typeof userQuery>['executeTakeFirstOrThrow']>>;

function filtered(db: Executor, enterpriseId: string, filter: UserFilter) {
  const query = userQuery(db, enterpriseId);
  if (filter === null) return query;
  if (filter.attribute === 'userName') return query.where(sql`lower(u.email)`, '=', filter.value.toLowerCase());
  if (filter.attribute === 'externalId') return query.where('s.external_id', '=', filter.value);
  return query.where('m.user_id', '=', filter.value);
}

export async function listUsers(db: Executor, enterpriseId: string, filter: UserFilter, limit: number, offset: number) {
  return filtered(db, enterpriseId, filter).orderBy('m.created_at').orderBy('m.user_id').limit(limit).offset(offset).execute();
}

export async function countUsers(db: Executor, enterpriseId: string, filter: UserFilter): Promise<number> {
  return countRows(filtered(db, enterpriseId, filter));
}

export async function findUser(db: Executor, enterpriseId: string, userId: string) {
  return userQuery(db, enterpriseId).where('m.user_id', '=', userId).executeTakeFirst();
}

/** The members of the enterprise among these ids (a group's members must be the enterprise's users). */
export async function membersAmong(db: Executor, enterpriseId: string, userIds: readonly string[]): Promise<string[]> {
  if (userIds.length === 0) return [];
  const rows = await db.selectFrom('enterprise_members').select('user_id').where('enterprise_id', '=', enterpriseId).where('user_id', 'in', userIds).execute();
  return rows.map((row) => row.user_id);
}

/** The member is the directory's from now on; its externalId kept (null leaves the one known). */
export async function markProvisioned(trx: Transaction<DB>, enterpriseId: string, userId: string, externalId: string | null | undefined) {
  await trx
    .insertInto('scim_users')
    .values({ user_id: userId, enterprise_id: enterpriseId, external_id: externalId ?? null })
    .onConflict((oc) =>
      oc.columns(['user_id', 'enterprise_id']).doUpdateSet(externalId === undefined ? { updated_at: new Date() } : { external_id: externalId, updated_at: new Date() }),
    )
    .execute();
}

/** Whether the directory manages the member (it created or changed them). */
export async function isProvisioned(db: Executor, enterpriseId: string, userId: string): Promise<boolean> {
  return (await db.selectFrom('scim_users').select('user_id').where('enterprise_id', '=', enterpriseId).where('user_id', '=', userId).executeTakeFirst()) !== undefined;
}
