import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { DB } from '../db/schema.js';
import type { IdempotencyKeysTable } from '../db/tables/idempotency.js';

export type StoredAnswer = Selectable<IdempotencyKeysTable>;

/**
 * The key's lock for this transaction, without waiting: false while another request with the same caller
 * and key runs (409). Released at commit or rollback.
 */
export async function tryLockKey(trx: Transaction<DB>, userId: string, key: string): Promise<boolean> {
  const { rows } = await sql<{ locked: boolean }>`
    select pg_try_advisory_xact_lock(hashtext(${userId}), hashtext(${key})) as locked`.execute(trx);
  return rows[0]?.locked === true;
}

export async function findAnswer(trx: Transaction<DB>, userId: string, key: string): Promise<StoredAnswer | undefined> {
  return trx
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('user_id', '=', userId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
}

export async function deleteAnswer(trx: Transaction<DB>, userId: string, key: string): Promise<void> {
  await trx.deleteFrom('idempotency_keys').where('user_id', '=', userId).where('idempotency_key', '=', key).execute();
}

export interface AnswerToStore {
  userId: string;
  key: string;
  fingerprint: string;
  status: number;
  headers: Record<string, string>;
  body: string;
  expiresAt: Date;
}

export async function storeAnswer(trx: Transaction<DB>, answer: AnswerToStore): Promise<void> {
  await trx
    .insertInto('idempotency_keys')
    .values({
      user_id: answer.userId,
      idempotency_key: answer.key,
      fingerprint: answer.fingerprint,
      response_status: answer.status,
      response_headers: JSON.stringify(answer.headers),
      response_body: answer.body,
      expires_at: answer.expiresAt,
    })
    .execute();
}

/** Deletes up to `limit` expired answers (by the expiry index); the number deleted. */
export async function sweepExpired(db: Kysely<DB>, limit: number): Promise<number> {
  const result = await sql`
    delete from idempotency_keys where ctid in (
      select ctid from idempotency_keys where expires_at < now() limit ${limit} for update skip locked
    )`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}
