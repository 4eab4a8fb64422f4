import { sql, type Transaction } from 'kysely';
import type { EntityAssignment, NamedAssignment } from '../../../platform/auth/principal.js';
import { countRows, newestFirst } from '../../../platform/db/page-queries.js';
import type { DB, Executor } from '../../../platform/db/schema.js';
import type { MemberRole } from '../../../platform/db/tables/users.js';

/** An account with its assignments (named) and its tokens' summary: one statement, no query per account. */
function accountQuery(db: Executor, enterpriseId: string) {
  return db
    .selectFrom('service_accounts as a')
    .select([
      'a.id',
      'a.name',
      'a.description',
      'a.role',
      'a.active',
      'a.deactivated_at',
      'a.created_by',
      'a.created_at',
      'a.updated_at',
      'a.row_version',
      sql<NamedAssignment[]>`(
        select coalesce(json_agg(json_build_object(
          'legal_entity_id', e.legal_entity_id, 'name', le.name,
          'business_unit_id', e.business_unit_id, 'business_unit_name', bu.name
        ) order by le.name, bu.name nulls first), '[]'::json)
        from service_account_entities e
        join legal_entities le on le.enterprise_id = e.enterprise_id and le.id = e.legal_entity_id
        left join business_units bu on bu.enterprise_id = e.enterprise_id and bu.id = e.business_unit_id
        where e.enterprise_id = a.enterprise_id and e.service_account_id = a.id)`.as('entity_assignments'),
      sql<number>`(select count(*)::int from service_account_tokens t
        where t.enterprise_id = a.enterprise_id and t.service_account_id = a.id
          and t.revoked_at is null and t.expires_at > now())`.as('live_tokens'),
      sql<Date | null>`(select max(t.last_used_at) from service_account_tokens t
        where t.enterprise_id = a.enterprise_id and t.service_account_id = a.id)`.as('last_used_at'),
    ])
    .where('a.enterprise_id', '=', enterpriseId);
}

export type ServiceAccountRow = Awaited<ReturnType<ReturnType<typeof accountQuery>['executeTakeFirstOrThrow']>>;

export async function listServiceAccounts(db: Executor, enterpriseId: string, includeInactive: boolean, limit: number, offset: number) {
  let query = accountQuery(db, enterpriseId);
  if (!includeInactive) query = query.where('a.active', '=', true);
  return newestFirst(query, limit, offset, 'a').execute();
}

export async function countServiceAccounts(db: Executor, enterpriseId: string, includeInactive: boolean): Promise<number> {
  let query = db.selectFrom('service_accounts').where('enterprise_id', '=', enterpriseId);
  if (!includeInactive) query = query.where('active', '=', true);
  return countRows(query);
}

export async function findServiceAccount(db: Executor, enterpriseId: string, id: string) {
  return accountQuery(db, enterpriseId).where('a.id', '=', id).executeTakeFirst();
}

export async function serviceAccountExists(db: Executor, enterpriseId: string, id: string): Promise<boolean> {
  const row = await db.selectFrom('service_accounts').select('id').where('enterprise_id', '=', enterpriseId).where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}

/** The account under its row lock, for a change (versioned-change.ts). */
export async function lockServiceAccount(trx: Transaction<DB>, enterpriseId: string, id: string) {
  return accountQuery(trx, enterpriseId).where('a.id', '=', id).forUpdate('a').executeTakeFirst();
}

export async function insertServiceAccount(
  trx: Transaction<DB>,
  enterpriseId: string,
  values: { id: string; name: string; description: string | null; role: MemberRole; created_by: string },
) {
  await trx.insertInto('service_accounts').values({ ...values, enterprise_id: enterpriseId }).execute();
}

export async function updateServiceAccount(
  trx: Transaction<DB>,
  enterpriseId: string,
  id: string,
  changes: Partial<{ name: string; description: string | null; role: MemberRole; active: boolean; deactivated_at: Date | null }>,
) {
  await trx.updateTable('service_accounts').set({ ...changes, updated_at: new Date() }).where('enterprise_id', '=', enterpriseId).where('id', '=', id).execute();
}

/** The account's assignments become exactly `assignments`. */
export async function replaceAssignments(trx: Transaction<DB>, enterpriseId: string, id: string, assignments: readonly EntityAssignment[]) {
  await trx.deleteFrom('service_account_entities').where('enterprise_id', '=', enterpriseId).where('service_account_id', '=', id).execute();
  if (assignments.length === 0) return;
  await trx
    .insertInto('service_account_entities')
    .values(assignments.map((a) => ({ enterprise_id: enterpriseId, service_account_id: id, ...a })))
    .execute();
}
