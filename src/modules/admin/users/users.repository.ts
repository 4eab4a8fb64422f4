import { sql, type Transaction } from 'kysely';
import type { NamedAssignment } from '../../../platform/auth/principal.js';
import { countRows } from '../../../platform/db/page-queries.js';
import type { DB, Executor } from '../../../platform/db/schema.js';
import type { MemberRole } from '../../../platform/db/tables/users.js';

/** The latest invitation as the list shows it; timestamps arrive as JSON text. */
export interface InvitationRow {
  sent_at: string;
  expires_at: string;
  accepted_at: string | null;
  delivery_status: 'queued' | 'sent' | 'failed' | 'dropped';
  delivery_attempts: number;
  delivery_error: string | null;
  delivered_at: string | null;
}

/**
 * The enterprise's members as the list shows them, with their entity assignments aggregated in the same
 * statement (one correlated json_agg per member row, on the entity_roles user index): no query per user.
 */
function memberViews(db: Executor, enterpriseId: string) {
  return db
    .selectFrom('enterprise_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select((eb) => [
      // The latest invitation to this enterprise and the state of its mail: one lateral lookup per row,
      // on the link's user index and the outbox's link index (no query per user).
      sql<InvitationRow | null>`(
        select json_build_object(
          'sent_at', t.created_at, 'expires_at', t.expires_at, 'accepted_at', t.used_at,
          'delivery_status', case when o.sent_at is not null then 'sent' when o.dropped_at is not null then 'dropped'
                                  when o.last_error is not null then 'failed' else 'queued' end,
          'delivery_attempts', coalesce(o.attempts, 0), 'delivery_error', o.last_error, 'delivered_at', o.sent_at)
        from auth_one_time_tokens t
        left join mail_outbox o on o.one_time_token_id = t.id
        where t.user_id = m.user_id and t.kind = 'invite' and t.enterprise_id = m.enterprise_id
        order by t.created_at desc, o.created_at desc limit 1)`.as('invitation'),
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
          sql<NamedAssignment[]>`coalesce(json_agg(json_build_object(
            'legal_entity_id', r.legal_entity_id, 'name', le.name,
            'business_unit_id', r.business_unit_id, 'business_unit_name', bu.name
          ) order by le.name, bu.name nulls first), '[]'::json)`.as('assignments'),
        )
        .whereRef('r.user_id', '=', 'm.user_id')
        .whereRef('r.enterprise_id', '=', 'm.enterprise_id')
        .as('entity_assignments'),
    ])
    .where('m.enterprise_id', '=', enterpriseId);
}

export type MemberView = Awaited<ReturnType<typeof listMembers>>[number];

export async function listMembers(db: Executor, enterpriseId: string, includeInactive: boolean) {
  let query = memberViews(db, enterpriseId);
  if (!includeInactive) query = query.where('m.active', '=', true);
  return query.orderBy('m.created_at', 'desc').orderBy('m.id', 'desc').execute();
}

/** One member as the list shows them (the answer to a change of that member). */
export async function findMemberView(db: Executor, enterpriseId: string, userId: string): Promise<MemberView | undefined> {
  return memberViews(db, enterpriseId).where('m.user_id', '=', userId).executeTakeFirst();
}

export async function insertMember(trx: Transaction<DB>, enterpriseId: string, userId: string, role: MemberRole) {
  return trx
    .insertInto('enterprise_members')
    .values({ enterprise_id: enterpriseId, user_id: userId, role })
    .returning(['id', 'role', 'created_at'])
    .executeTakeFirstOrThrow();
}

/** A membership with its identity: what the changes of a member read and lock. */
function memberWithIdentity(db: Executor) {
  return db
    .selectFrom('enterprise_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.id', 'm.enterprise_id', 'm.user_id', 'm.role', 'm.active', 'm.row_version', 'u.active as user_active', 'u.email', 'u.full_name'])
    .select(sql<boolean>`u.password_hash is not null`.as('has_password'));
}

/**
 * The user's active membership, in the given enterprise or (null: a super admin's reach) in any.
 * `lock` takes the row lock a change of the member needs against a concurrent one.
 */
export async function findActiveMember(db: Executor, enterpriseId: string | null, userId: string, lock = false) {
  let query = memberWithIdentity(db).where('m.user_id', '=', userId).where('m.active', '=', true).where('u.active', '=', true);
  if (enterpriseId !== null) query = query.where('m.enterprise_id', '=', enterpriseId);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** The user's membership of the enterprise (one per pair, enterprise_members_enterprise_user_key), active or not, locked. */
export async function findMembershipForUpdate(trx: Transaction<DB>, enterpriseId: string, userId: string) {
  return memberWithIdentity(trx).where('m.enterprise_id', '=', enterpriseId).where('m.user_id', '=', userId).forUpdate().executeTakeFirst();
}

/** Deactivates the membership (`deactivatedAt`: when) or, with null, makes it active again. */
export async function setMemberActivity(trx: Transaction<DB>, enterpriseId: string, memberId: string, deactivatedAt: Date | null) {
  await trx
    .updateTable('enterprise_members')
    .set({ active: deactivatedAt === null, deactivated_at: deactivatedAt })
    .where('enterprise_id', '=', enterpriseId)
    .where('id', '=', memberId)
    .execute();
}

export async function countAssignments(db: Executor, enterpriseId: string, userId: string): Promise<number> {
  return countRows(db.selectFrom('entity_roles').where('enterprise_id', '=', enterpriseId).where('user_id', '=', userId));
}

/**
 * A member's role (an administrator's change, or the enterprise's directory's through SCIM group mappings).
 * Writes only when it differs; returns the membership's new version then, undefined when it had that role.
 */
export async function setMemberRole(trx: Transaction<DB>, enterpriseId: string, memberId: string, role: MemberRole) {
  return trx
    .updateTable('enterprise_members')
    .set({ role })
    .where('enterprise_id', '=', enterpriseId)
    .where('id', '=', memberId)
    .where('role', '<>', role)
    .returning('row_version')
    .executeTakeFirst();
}
