import { sql, type Kysely, type RawBuilder, type Selectable, type Transaction } from 'kysely';
import type { DB, Executor } from '../db/schema.js';
import { afterCommit } from '../db/transaction.js';
import type { MailOutboxTable } from '../db/tables/mail.js';

/** SQL of the mail outbox (platform/mail owns mail_outbox). */

export type OutboxRow = Pick<Selectable<MailOutboxTable>, 'id' | 'recipient' | 'template' | 'data' | 'one_time_token_id' | 'attempts'>;

/** Written in the transaction of the change that causes the mail: it exists exactly when the change commits. */
export async function enqueueMail(
  trx: Transaction<DB>,
  mail: { recipient: string; template: string; data: Record<string, unknown>; oneTimeTokenId: string | null },
): Promise<string> {
  const row = await trx
    .insertInto('mail_outbox')
    .values({ recipient: mail.recipient, template: mail.template, data: JSON.stringify(mail.data), one_time_token_id: mail.oneTimeTokenId })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Queues one mail per row of `rows` (a SELECT of recipient, template, data), as a part of another owner's
 * statement (a data-modifying CTE): the mail is written by the very statement that writes what it tells of,
 * whatever the number of rows. Returns the new rows' ids.
 */
export function enqueueMailSql(rows: RawBuilder<unknown>): RawBuilder<{ id: string }> {
  return sql<{ id: string }>`insert into mail_outbox (recipient, template, data) ${rows} returning id`;
}

// Who delivers the outbox of a database in this process (app.ts registers its delivery's wake).
const deliverers = new WeakMap<Kysely<DB>, Set<() => void>>();

/** `wake` is called when mail was queued on `db` and has committed; the function returned stops that. */
export function listenForMail(db: Kysely<DB>, wake: () => void): () => void {
  const set = deliverers.get(db) ?? new Set();
  deliverers.set(db, set);
  set.add(wake);
  return () => void set.delete(wake);
}

/**
 * Mail was queued on `db` (by a statement of another owner, enqueueMailSql): the deliverers of this process
 * are woken once it has committed. Elsewhere (another instance, a transaction opened without
 * inTransaction) the outbox's periodic round sends it.
 */
export function announceMail(db: Executor): void {
  afterCommit(db, (root) => {
    for (const wake of deliverers.get(root) ?? []) wake();
  });
}

/** How long a round holds the rows it claimed: longer than any SMTP exchange (nodemailer times out in 2 minutes). */
const LEASE_SECONDS = 300;

/**
 * Claims due rows for one round: SKIP LOCKED and the lease let several instances deliver side by side
 * without ever taking the same row; a round that dies mid-way leaves its rows to a round after the lease.
 */
export async function claimDueMail(db: Executor, now: Date, limit: number): Promise<OutboxRow[]> {
  const { rows } = await sql<OutboxRow>`
    update mail_outbox set lease_until = ${now}::timestamptz + make_interval(secs => ${LEASE_SECONDS}), attempts = attempts + 1,
      last_attempt_at = ${now}
    where id in (
      select id from mail_outbox
      where sent_at is null and dropped_at is null and next_attempt_at <= ${now}
        and (lease_until is null or lease_until <= ${now})
      order by next_attempt_at, id
      limit ${limit}
      for update skip locked)
    returning id, recipient, template, data, one_time_token_id, attempts`.execute(db);
  return rows;
}

export async function markMailSent(db: Executor, id: string, at: Date): Promise<void> {
  await db.updateTable('mail_outbox').set({ sent_at: at, lease_until: null, last_error: null }).where('id', '=', id).execute();
}

export async function markMailDropped(db: Executor, id: string, at: Date, why: string): Promise<void> {
  await db.updateTable('mail_outbox').set({ dropped_at: at, lease_until: null, last_error: why }).where('id', '=', id).execute();
}

/** A failed attempt: kept, with the reason for the admin, and tried again later (never given up). */
export async function markMailFailed(db: Executor, id: string, nextAttemptAt: Date, error: string): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set({ next_attempt_at: nextAttemptAt, lease_until: null, last_error: error.slice(0, 500) })
    .where('id', '=', id)
    .execute();
}

/** Backoff after the n-th failed attempt: 30 s, 1 min, 2 min, ... at most an hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(attempts - 1, 0), 3_600_000);
}
