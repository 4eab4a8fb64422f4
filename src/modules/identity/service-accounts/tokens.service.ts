import { randomUUID } from 'node:crypto';
import { recordChange } from '../../../platform/audit/record-change.js';
import type { Caller } from '../../../platform/auth/principal.js';
import type { Transaction } from 'kysely';
import type { DB, Executor } from '../../../platform/db/schema.js';
import { inTransaction, joinWork } from '../../../platform/db/transaction.js';
import { invalidState, notFound } from '../../../platform/errors/app-error.js';
import { loadPage, pageRequest } from '../../../platform/http/pagination.js';
import type { ChangeTerms } from '../../../platform/versions/change-terms.js';
import { issueToken } from '../integration-tokens/integration-token.js';
import { requireIntegrationAdmin } from '../integrations.policy.js';
import type { IssueTokenBody, RotateTokenBody, TokenListQuery, TokenView } from './service-accounts.schemas.js';
import { lockServiceAccount, serviceAccountExists } from './service-accounts.repository.js';
import { checkedAllowList, checkedExpiry, checkedOverlapMs, tokenStatus } from './token-rules.js';
import { countTokens, insertToken, listTokens, lockToken, revokeToken, shortenExpiry } from './tokens.repository.js';

export interface TokensServiceDeps {
  db: Executor;
  settings: { tokenMaxDays: number; rotationOverlapMaxHours: number };
  now?: () => Date;
}

/** At most this many live tokens per account: enough for a rotation or two under way, few to watch. */
export const MAX_LIVE_TOKENS = 10;

type TokenRow = Omit<TokenView, 'status'>;

/**
 * A service account's tokens: issued, rotated and revoked by a client admin in person. The token itself is
 * in the issuing answer only; the audit entries name the token's id, name, expiry and allow-list, never it.
 */
export function createTokensService({ db, settings, now = () => new Date() }: TokensServiceDeps) {
  const present = (row: TokenRow): TokenView => ({ ...row, status: tokenStatus({ revoked_at: row.revoked_at as Date | null, expires_at: row.expires_at as Date }, now()) });

  /** The account a token change is about, locked, active: 404 for another enterprise's, 409 once deactivated. */
  async function activeAccount(trx: Transaction<DB>, enterpriseId: string, accountId: string) {
    const account = await lockServiceAccount(trx, enterpriseId, accountId);
    if (account === undefined) throw notFound('Service account');
    if (!account.active) throw invalidState('The service account is deactivated');
    if (account.live_tokens >= MAX_LIVE_TOKENS) throw invalidState(`A service account has at most ${MAX_LIVE_TOKENS} live tokens: revoke one first`);
    return account;
  }

  async function issue(trx: Transaction<DB>, caller: Caller & { enterpriseId: string }, accountId: string, terms: { name: string; expiresAt: Date; allowedIps: string[] | null; rotatedFrom: string | null }) {
    const issued = issueToken('sa', randomUUID());
    const row = await insertToken(trx, caller.enterpriseId, {
      id: issued.id,
      service_account_id: accountId,
      name: terms.name,
      secret_hash: issued.secretHash,
      hint: issued.hint,
      expires_at: terms.expiresAt,
      allowed_ips: terms.allowedIps,
      rotated_from: terms.rotatedFrom,
      created_by: caller.userId,
    });
    return { row, token: issued.token };
  }

  return {
    async list(caller: Caller, accountId: string, query: TokenListQuery) {
      requireIntegrationAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      if (!(await serviceAccountExists(db, enterpriseId, accountId))) throw notFound('Service account');
      const page = await loadPage(
        pageRequest(query),
        () => countTokens(db, enterpriseId, accountId),
        (limit, offset) => listTokens(db, enterpriseId, accountId, limit, offset),
      );
      return { ...page, data: page.data.map(present) };
    },

    async issue(caller: Caller, accountId: string, body: IssueTokenBody, terms: ChangeTerms) {
      requireIntegrationAdmin(caller);
      const expiresAt = checkedExpiry(body.expires_at, now(), settings.tokenMaxDays);
      const allowedIps = checkedAllowList(body.allowed_ips);
      return inTransaction(joinWork(db, terms.work), async ({ trx }) => {
        await activeAccount(trx, caller.enterpriseId, accountId);
        const { row, token } = await issue(trx, caller, accountId, { name: body.name, expiresAt, allowedIps, rotatedFrom: null });
        await recordChange(trx, caller, {
          action: 'update',
          entityType: 'service_account',
          entityId: accountId,
          details: { change: 'token_issued', token_id: row.id, token_name: row.name, expires_at: expiresAt.toISOString(), allowed_ips: allowedIps },
        });
        return { ...present(row), token };
      });
    },

    /** The successor takes the old token's name and allow-list; the old one works until the overlap ends. */
    async rotate(caller: Caller, accountId: string, tokenId: string, body: RotateTokenBody, terms: ChangeTerms) {
      requireIntegrationAdmin(caller);
      const at = now();
      const expiresAt = checkedExpiry(body.expires_at, at, settings.tokenMaxDays);
      const overlapMs = checkedOverlapMs(body.overlap_hours, settings.rotationOverlapMaxHours);
      return inTransaction(joinWork(db, terms.work), async ({ trx }) => {
        await activeAccount(trx, caller.enterpriseId, accountId);
        const old = await lockToken(trx, caller.enterpriseId, accountId, tokenId);
        if (old === undefined) throw notFound('Token');
        if (tokenStatus(old, at) !== 'active') throw invalidState('Only a live token can be rotated: issue a new one');
        const { row, token } = await issue(trx, caller, accountId, { name: old.name, expiresAt, allowedIps: old.allowed_ips, rotatedFrom: old.id });
        const shortened = await shortenExpiry(trx, caller.enterpriseId, old.id, new Date(at.getTime() + overlapMs));
        await recordChange(trx, caller, {
          action: 'update',
          entityType: 'service_account',
          entityId: accountId,
          details: { change: 'token_rotated', token_id: row.id, rotated_from: old.id, expires_at: expiresAt.toISOString(), previous_expires_at: shortened.expires_at.toISOString() },
        });
        return { ...present(row), token };
      });
    },

    /** Refused from its next request on every instance (token lookups are not cached). Revoking again changes nothing. */
    async revoke(caller: Caller, accountId: string, tokenId: string): Promise<TokenView> {
      requireIntegrationAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      return inTransaction(db, async ({ trx }) => {
        const token = await lockToken(trx, enterpriseId, accountId, tokenId);
        if (token === undefined) throw notFound('Token');
        if (token.revoked_at !== null) return present(token);
        const revoked = await revokeToken(trx, enterpriseId, tokenId, caller.userId, now());
        await recordChange(trx, caller, {
          action: 'update',
          entityType: 'service_account',
          entityId: accountId,
          details: { change: 'token_revoked', token_id: tokenId, token_name: token.name },
        });
        return present(revoked);
      });
    },
  };
}

export type TokensService = ReturnType<typeof createTokensService>;
