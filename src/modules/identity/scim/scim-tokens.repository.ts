import type { Transaction } from 'kysely';
import { lockOwnRow, updateOwnRow } from '../../../platform/db/own-rows.js';
import { countRows, newestFirst } from '../../../platform/db/page-queries.js';
import type { DB, Executor } from '../../../platform/db/schema.js';

const COLUMNS = ['id', 'name', 'hint', 'expires_at', 'last_used_at', 'last_used_ip', 'revoked_at', 'created_by', 'created_at'] as const;

export async function insertScimToken(
  trx: Transaction<DB>,
  enterpriseId: string,
  values: { id: string; name: string; secret_hash: string; hint: string; expires_at: Date | null; created_by: string },
) {
  return trx.insertInto('scim_tokens').values({ ...values, enterprise_id: enterpriseId }).returning(COLUMNS).executeTakeFirstOrThrow();
}

export async function listScimTokens(db: Executor, enterpriseId: string, limit: number, offset: number) {
  return newestFirst(db.selectFrom('scim_tokens').select(COLUMNS).where('enterprise_id', '=', enterpriseId), limit, offset).execute();
}

export async function countScimTokens(db: Executor, enterpriseId: string): Promise<number> {
  return countRows(db.selectFrom('scim_tokens').where('enterprise_id', '=', enterpriseId));
}

export async function lockScimToken(trx: Transaction<DB>, enterpriseId: string, id: string) {
  return lockOwnRow(trx, 'scim_tokens', enterpriseId, id, COLUMNS);
}

export async function revokeScimToken(trx: Transaction<DB>, enterpriseId: string, id: string, by: string, at: Date) {
  return updateOwnRow(trx, 'scim_tokens', enterpriseId, id, { revoked_at: at, revoked_by: by }, COLUMNS);
}

/** The SCIM gate's lookup, by the token's id alone (the primary key's leading column). */
export async function findScimTokenForUse(db: Executor, id: string) {
  return db
    .selectFrom('scim_tokens as t')
    .innerJoin('enterprises as e', 'e.id', 't.enterprise_id')
    .select(['t.id', 't.enterprise_id', 't.name', 't.secret_hash', 't.expires_at', 't.revoked_at', 't.last_used_at'])
    .where('t.id', '=', id)
    .executeTakeFirst();
}

/** Last use, to the minute. */
export async function recordScimTokenUse(db: Executor, enterpriseId: string, id: string, ip: string, at: Date) {
  await db.updateTable('scim_tokens').set({ last_used_at: at, last_used_ip: ip }).where('enterprise_id', '=', enterpriseId).where('id', '=', id).execute();
}
