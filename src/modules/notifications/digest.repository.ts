import { sql, type Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.js';
import { enqueueMailSql } from '../../platform/mail/outbox.js';
import { DIGEST_MAIL } from './notification-delivery.js';
import { ACTIVE_MEMBERS } from './notifications.repository.js';
import { effectiveDeliverySql } from './preferences.repository.js';

/**
 * The daily digest in one statement, whatever the number of people (issue 49): every notification that
 * waits for the digest (delivery 'digest', not yet mailed) is marked mailed, and each active member with
 * any of them gets one outbox row naming them, in the same statement, so that a notification is in one
 * digest at most, and a second round finds nothing left. A person who meanwhile turned a kind off, or who
 * is no longer an active member, gets nothing for it (and it is marked all the same: it never comes back
 * in a later digest). Returns how many digests were queued.
 */
export async function queueDigests(trx: Kysely<DB>, now: Date): Promise<number> {
  const { rows } = await sql<{ id: string }>`
    with taken as (
      update notifications n set mailed_at = ${now}
       where n.delivery = 'digest' and n.mailed_at is null and n.created_at <= ${now}
      returning n.id, n.enterprise_id, n.user_id, n.kind, n.created_at
    ), people as (
      select t.enterprise_id, t.user_id, u.email, jsonb_agg(t.id order by t.created_at, t.id) as ids
        from taken t
        join (${ACTIVE_MEMBERS}) on m.enterprise_id = t.enterprise_id and m.user_id = t.user_id
       where ${effectiveDeliverySql(sql.ref('t.enterprise_id'), sql.ref('t.user_id'), sql.ref('t.kind'))} <> 'off'
       group by t.enterprise_id, t.user_id, u.email
    )
    ${enqueueMailSql(sql`
      select p.email, ${DIGEST_MAIL}, jsonb_build_object('enterprise_id', p.enterprise_id, 'user_id', p.user_id, 'notification_ids', p.ids, 'day', ${now}::timestamptz)
        from people p`)}`.execute(trx);
  return rows.length;
}
