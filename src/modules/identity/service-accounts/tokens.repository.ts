import { sql, type Selectable, type Transaction } from 'kysely';
import type { EntityAssignment } from '../../../platform/auth/principal.js';
import { updateOwnRow } from '../../../platform/db/own-rows.js';
import { countRows, newestFirst } from '../../../platform/db/page-queries.js';
import type { DB, Executor } from '../../../platform/db/schema.js';
import type { ServiceAccountTokensTable } from '../../../platform/db/tables/service-accounts.js';

const TOKEN_COLUMNS = [
  'id',
  'service_account_id',
  'name',
  'hint',
  'expires_at',
  'allowed_ips',
  'last_used_at',
  'last_used_ip',
  'revoked_at',
  'rotated_from',
  'created_by',
  'created_at',
] as const;

/** What issuing a token writes: its columns but the enterprise's and those of its later life (use, revocation). */
type NewToken = Omit<Selectable<ServiceAccountTokensTable>, 'enterprise_id' | 'last_used_at' | 'last_used_ip' | 'revoked_at' | 'revoked_by' | 'created_at'> & {
  created_by: string;
};

export async function insertToken(trx: Transaction<DB>, enterpriseId: string, values: NewToken) {
  return trx.insertInto('service_account_tokens').values({ ...values, enterprise_id: enterpriseId }).returning(TOKEN_COLUMNS).executeTakeFirstOrThrow();
}

/** The tokens of one account of the enterprise: what the list, its count and a token's lock read. */
function tokensOf(db: Executor, enterpriseId: string, accountId: string) {
  return db.selectFrom('service_account_tokens').where('enterprise_id', '=', enterpriseId).where('service_account_id', '=', accountId);
}

export async function listTokens(db: Executor, enterpriseId: string, accountId: string, limit: number, offset: number) {
  return newestFirst(tokensOf(db, enterpriseId, accountId).select(TOKEN_COLUMNS), limit, offset).execute();
}

export async function countTokens(db: Executor, enterpriseId: string, accountId: string): Promise<number> {
  return countRows(tokensOf(db, enterpriseId, accountId));
}

export async function lockToken(trx: Transaction<DB>, enterpriseId: string, accountId: string, tokenId: string) {
  return tokensOf(trx, enterpriseId, accountId).select(TOKEN_COLUMNS).where('id', '=', tokenId).forUpdate().executeTakeFirst();
}

export async function revokeToken(trx: Transaction<DB>, enterpriseId: string, tokenId: string, by: string, at: Date) {
  return updateOwnRow(trx, 'service_account_tokens', enterpriseId, tokenId, { revoked_at: at, revoked_by: by }, TOKEN_COLUMNS);
}

/** Every token of the account still live, revoked (its deactivation); returns their ids. */
export async function revokeAccountTokens(trx: Transaction<DB>, enterpriseId: string, accountId: string, by: string, at: Date) {
  const rows = await trx
    .updateTable('service_account_tokens')
    .set({ revoked_at: at, revoked_by: by })
    .where('enterprise_id', '=', enterpriseId)
    .where('service_account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

/** A rotated token stops at the end of its overlap, or earlier if it expired before. */
export async function shortenExpiry(trx: Transaction<DB>, enterpriseId: string, tokenId: string, until: Date) {
  return updateOwnRow(trx, 'service_account_tokens', enterpriseId, tokenId, { expires_at: sql<Date>`least(${sql.ref('expires_at')}, ${until})` }, TOKEN_COLUMNS);
}

/**
 * What the API gate needs of a token, found by its id alone (the primary key's leading column): the token,
 * its account and the account's identity and assignments, in one statement.
 */
export async function findTokenForUse(db: Executor, tokenId: string) {
  return db
    .selectFrom('service_account_tokens as t')
    .innerJoin('service_accounts as a', (join) => join.onRef('a.id', '=', 't.service_account_id').onRef('a.enterprise_id', '=', 't.enterprise_id'))
    .innerJoin('users as u', 'u.id', 'a.id')
    .select([
      't.id',
      't.enterprise_id',
      't.secret_hash',
      't.expires_at',
      't.revoked_at',
      't.allowed_ips',
      'a.id as account_id',
      'a.name',
      'a.role',
      'a.active',
      'u.email',
      sql<EntityAssignment[]>`(
        select coalesce(json_agg(json_build_object('legal_entity_id', e.legal_entity_id, 'business_unit_id', e.business_unit_id)), '[]'::json)
        from service_account_entities e where e.enterprise_id = a.enterprise_id and e.service_account_id = a.id)`.as('assignments'),
    ])
    .where('t.id', '=', tokenId)
    .executeTakeFirst();
}

/** Last use, to the minute: written only when the recorded one is a minute old (a write per token per minute at most). */
export async function recordTokenUse(db: Executor, enterpriseId: string, tokenId: string, ip: string, at: Date) {
  await db
    .updateTable('service_account_tokens')
    .set({ last_used_at: at, last_used_ip: ip })
    .where('enterprise_id', '=', enterpriseId)
    .where('id', '=', tokenId)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', new Date(at.getTime() - 60_000))]))
    .execute();
}
