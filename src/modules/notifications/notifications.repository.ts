import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { countRows } from '../../platform/db/page-queries.js';
import type { Executor } from '../../platform/db/schema.js';
import type { NotificationKind } from '../../platform/db/tables/notifications.js';

/**
 * Notifications (SQL only). Every read names the enterprise and the person (notifications_user_idx,
 * notifications_unread_idx); the recipients of a notice are chosen and written in one statement.
 */

/** What a notification tells of: at least one subject; an action's or an acceptance's BRA beside it. */
export interface NoticeSubject {
  bra_id?: string | null;
  mitigation_action_id?: string | null;
  sub_control_id?: string | null;
  risk_acceptance_id?: string | null;
}

export interface Notice extends NoticeSubject {
  kind: NotificationKind;
  title: string;
  body: string | null;
  actor_id: string | null;
  /** A reminder's period: written once per recipient, kind, subject and period (notifications_once_per_period_key). */
  period?: string | null;
}

/** The columns, in order, of the rows a notification statement selects (see insertNotifications). */
export const NOTIFICATION_COLUMNS = sql.raw(
  'enterprise_id, user_id, kind, bra_id, mitigation_action_id, sub_control_id, risk_acceptance_id, period, title, body, actor_id',
);

/**
 * Recipients: the enterprise's active members (`m`) whose account is active (`u`); a notification statement
 * joins them, so that a deactivated member or account is never told.
 */
export const ACTIVE_MEMBERS = sql`enterprise_members m join users u on u.id = m.user_id and u.deactivated_at is null and m.active`;

/**
 * The one statement that writes notifications: `rows` is a SELECT of NOTIFICATION_COLUMNS (in that order),
 * one row per recipient, drawn from ACTIVE_MEMBERS. A reminder already written for its period is skipped
 * (notifications_once_per_period_key). Returns how many were written.
 */
export async function insertNotifications(db: Executor, rows: RawBuilder<unknown>): Promise<number> {
  const { rows: written } = await sql<{ id: string }>`
    insert into notifications (${NOTIFICATION_COLUMNS})
    ${rows}
    on conflict do nothing
    returning id`.execute(db);
  return written.length;
}

/**
 * One notification for each active member of the enterprise whose membership `m` matches `who`, and who is
 * not `except` (the person who caused it); deactivated members and accounts are never told. Returns how many.
 */
export function insertForMembers(db: Executor, enterpriseId: string, who: RawBuilder<SqlBool>, except: string | null, notice: Notice): Promise<number> {
  return insertNotifications(
    db,
    sql`select m.enterprise_id, m.user_id, ${notice.kind}, ${notice.bra_id ?? null}::uuid, ${notice.mitigation_action_id ?? null}::uuid,
           ${notice.sub_control_id ?? null}::uuid, ${notice.risk_acceptance_id ?? null}::uuid, ${notice.period ?? null}::text,
           ${notice.title}, ${notice.body}, ${notice.actor_id}::uuid
      from ${ACTIVE_MEMBERS}
     where m.enterprise_id = ${enterpriseId} and m.user_id is distinct from ${except} and ${who}`,
  );
}

function ofPerson(db: Executor, enterpriseId: string, userId: string, unreadOnly: boolean) {
  return db
    .selectFrom('notifications as n')
    .where('n.enterprise_id', '=', enterpriseId)
    .where('n.user_id', '=', userId)
    .$if(unreadOnly, (q) => q.where('n.read_at', 'is', null));
}

export async function countNotifications(db: Executor, enterpriseId: string, userId: string, unreadOnly: boolean): Promise<number> {
  return countRows(ofPerson(db, enterpriseId, userId, unreadOnly));
}

/**
 * A page of a person's notifications, newest first, each with its subject's current name (an action's text,
 * a sub-control's or a BRA's name; an acceptance is named by its BRA) and who caused it.
 */
export async function listNotifications(db: Executor, enterpriseId: string, userId: string, unreadOnly: boolean, page: { limit: number; offset: number }) {
  return ofPerson(db, enterpriseId, userId, unreadOnly)
    .leftJoin('bras as b', (join) => join.onRef('b.enterprise_id', '=', 'n.enterprise_id').onRef('b.id', '=', 'n.bra_id'))
    .leftJoin('mitigation_actions as ma', (join) => join.onRef('ma.enterprise_id', '=', 'n.enterprise_id').onRef('ma.id', '=', 'n.mitigation_action_id'))
    .leftJoin('sub_controls as sc', (join) => join.onRef('sc.enterprise_id', '=', 'n.enterprise_id').onRef('sc.id', '=', 'n.sub_control_id'))
    .leftJoin('users as a', 'a.id', 'n.actor_id')
    .select([
      'n.id', 'n.kind', 'n.bra_id', 'b.name as bra_name', 'n.mitigation_action_id', 'ma.action as action_text', 'n.sub_control_id',
      'sc.name as sub_control_name', 'n.risk_acceptance_id', 'n.title', 'n.body', 'n.actor_id', 'a.full_name as actor_name', 'n.created_at', 'n.read_at',
    ])
    .orderBy('n.created_at', 'desc')
    .orderBy('n.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}
export type NotificationRow = Awaited<ReturnType<typeof listNotifications>>[number];

/** Marks a person's notifications read: the ones named, or all of them; those already read are left as they are. */
export async function markRead(db: Executor, enterpriseId: string, userId: string, ids: readonly string[] | 'all'): Promise<number> {
  const result = await db
    .updateTable('notifications')
    .set({ read_at: new Date() })
    .where('enterprise_id', '=', enterpriseId)
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .$if(ids !== 'all', (q) => q.where('id', 'in', ids as readonly string[]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
