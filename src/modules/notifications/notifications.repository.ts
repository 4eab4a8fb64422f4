import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { countRows } from '../../platform/db/page-queries.js';
import type { Executor } from '../../platform/db/schema.js';
import type { NotificationKind } from '../../platform/db/tables/notifications.js';
import { announceMail, enqueueMailSql } from '../../platform/mail/outbox.js';
import { NOTIFICATION_MAIL } from './notification-delivery.js';
import { effectiveDeliverySql } from './preferences.repository.js';

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

/** The columns of NOTIFICATION_COLUMNS as names of the rows a notification statement selects. */
const SELECTED = sql.raw(
  'r(enterprise_id, user_id, kind, bra_id, mitigation_action_id, sub_control_id, risk_acceptance_id, period, title, body, actor_id)',
);

/**
 * The one statement that writes notifications: `rows` is a SELECT of NOTIFICATION_COLUMNS (in that order),
 * one row per recipient, drawn from ACTIVE_MEMBERS. A reminder already written for its period is skipped
 * (notifications_once_per_period_key). Each row records the recipient's effective delivery then
 * (preferences.repository.ts); the ones to mail at once get their outbox row in the same statement (the
 * `notification` mail, rendered when it is sent: notification-mail.ts), the digest ones wait for the daily
 * round (digest.repository.ts). Returns how many were written.
 */
export async function insertNotifications(db: Executor, rows: RawBuilder<unknown>): Promise<number> {
  const now = sql`statement_timestamp()`;
  const { rows: counts } = await sql<{ written: number; mailed: number }>`
    with written as (
      insert into notifications (${NOTIFICATION_COLUMNS}, delivery, mailed_at)
      select r.*, e.delivery, case when e.delivery = 'immediate' then ${now} end
        from (${rows}) as ${SELECTED}
        cross join lateral (select ${effectiveDeliverySql(sql.ref('r.enterprise_id'), sql.ref('r.user_id'), sql.ref('r.kind'))} as delivery) e
      on conflict do nothing
      returning id, enterprise_id, user_id, delivery
    ), mailed as (
      ${enqueueMailSql(sql`
        select u.email, ${NOTIFICATION_MAIL}, jsonb_build_object('enterprise_id', w.enterprise_id, 'user_id', w.user_id, 'notification_ids', jsonb_build_array(w.id))
          from written w join users u on u.id = w.user_id
         where w.delivery = 'immediate'`)}
    )
    select (select count(*) from written)::int as written, (select count(*) from mailed)::int as mailed`.execute(db);
  const { written, mailed } = counts[0]!;
  if (mailed > 0) announceMail(db);
  return written;
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
 * An enterprise's notifications, each with its subject's current name (an action's text, a sub-control's or
 * a BRA's name; an acceptance is named by its BRA) and who caused it.
 */
function withSubjects(db: Executor, enterpriseId: string) {
  return db
    .selectFrom('notifications as n')
    .where('n.enterprise_id', '=', enterpriseId)
    .leftJoin('bras as b', (join) => join.onRef('b.enterprise_id', '=', 'n.enterprise_id').onRef('b.id', '=', 'n.bra_id'))
    .leftJoin('mitigation_actions as ma', (join) => join.onRef('ma.enterprise_id', '=', 'n.enterprise_id').onRef('ma.id', '=', 'n.mitigation_action_id'))
    .leftJoin('sub_controls as sc', (join) => join.onRef('sc.enterprise_id', '=', 'n.enterprise_id').onRef('sc.id', '=', 'n.sub_control_id'))
    .leftJoin('users as a', 'a.id', 'n.actor_id')
    .select([
      'n.id', 'n.kind', 'n.bra_id', 'b.name as bra_name', 'n.mitigation_action_id', 'ma.action as action_text', 'n.sub_control_id',
      'sc.name as sub_control_name', 'n.risk_acceptance_id', 'n.title', 'n.body', 'n.actor_id', 'a.full_name as actor_name', 'n.created_at', 'n.read_at',
    ]);
}

/** A page of a person's notifications, newest first, with their subjects (withSubjects). */
export async function listNotifications(db: Executor, enterpriseId: string, userId: string, unreadOnly: boolean, page: { limit: number; offset: number }) {
  return withSubjects(db, enterpriseId)
    .where('n.user_id', '=', userId)
    .$if(unreadOnly, (q) => q.where('n.read_at', 'is', null))
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

/**
 * What a notification mail tells, read when it is sent: the person's named notifications (oldest first) with
 * their subjects, the person's name and the enterprise's. None when the person is no longer an active
 * member with an active account: such a mail is dropped.
 */
export async function notificationsToMail(db: Executor, enterpriseId: string, userId: string, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return withSubjects(db, enterpriseId)
    .innerJoin('enterprise_members as m', (join) => join.onRef('m.enterprise_id', '=', 'n.enterprise_id').onRef('m.user_id', '=', 'n.user_id').on('m.active', '=', true))
    .innerJoin('users as u', (join) => join.onRef('u.id', '=', 'n.user_id').on('u.deactivated_at', 'is', null))
    .innerJoin('enterprises as e', 'e.id', 'n.enterprise_id')
    .select(['u.full_name as recipient_name', 'e.name as enterprise_name'])
    .where('n.user_id', '=', userId)
    .where('n.id', 'in', ids)
    .orderBy('n.created_at')
    .orderBy('n.id')
    .execute();
}
export type MailedNotification = Awaited<ReturnType<typeof notificationsToMail>>[number];
