import type { FastifyBaseLogger } from 'fastify';
import { recordChange } from '../../../platform/audit/record-change.js';
import type { Transaction } from 'kysely';
import type { DB } from '../../../platform/db/schema.js';
import { trailOf } from '../../../platform/audit/audit-events.js';
import { inTransaction } from '../../../platform/db/transaction.js';
import type { Principal, RequestOrigin } from '../../../platform/auth/principal.js';
import { queueRecovery } from '../onboarding-mail.js';
import { hashOneTimeToken } from '../credentials.js';
import { findOneTimeTokenForUse, markOneTimeTokenUsed, revokeOneTimeTokens, type OneTimeKind } from '../one-time-tokens.repository.js';
import { isAllowedRedirect } from './redirects.js';
import { revokeUserSessions } from '../sessions.repository.js';
import { setPasswordHash, updateProfile } from '../users.repository.js';
import { invalidRequest, otpExpired, redirectNotAllowed, weakPassword } from './provider.errors.js';
import { presentUser, type ProviderUserView, type TokenResponseView } from './provider.presenter.js';
import * as repo from './provider.repository.js';
import type { PrincipalResolver } from '../../../platform/auth/principal-resolver.js';
import type { createTokenGrants, TokenGrantsDeps } from './token-grants.service.js';

export const ONE_TIME_TYPES = ['invite', 'recovery'] as const;
export const MIN_PASSWORD_LENGTH = 8;

export interface OneTimeLinksDeps extends TokenGrantsDeps {
  principals: Pick<PrincipalResolver, 'invalidateSession' | 'invalidateUser'>;
  /** For work done after the answer (a recovery request's lookup and queueing). */
  log: Pick<FastifyBaseLogger, 'error'>;
  redirectUrls: readonly string[];
  /** After a commit that queued mail: deliver it now, off the request. */
  wakeMail: () => void;
}

/**
 * Supabase's invite and recovery flows: a one-time link (GET or POST /verify) signs the user in, and
 * PUT /user sets the password; POST /recover sends a recovery link and never says whether the e-mail is
 * known (the answer and what is written to the caller are the same for any address).
 */
export function createOneTimeLinks(
  deps: OneTimeLinksDeps,
  grants: Pick<ReturnType<typeof createTokenGrants>, 'startSession' | 'tokensFor'>,
  authenticate: (authorization: string | undefined, origin: RequestOrigin) => Promise<Principal>,
) {
  const { db } = deps;

  /** The redirect a link asks for, checked against AUTH_REDIRECT_URLS; the first entry when none is asked for. */
  function redirectFor(requested: string | undefined): string {
    if (requested === undefined || requested === '') return deps.redirectUrls[0] as string;
    if (!isAllowedRedirect(requested, deps.redirectUrls)) throw redirectNotAllowed();
    return requested;
  }

  /**
   * Uses a link: one use (the row is locked, so two presentations cannot both succeed), of the type it was
   * issued for, unexpired, unreplaced, of an active user. Any failure is the same 403 otp_expired, and
   * nothing changes.
   */
  async function verify(type: string | undefined, presented: string | undefined, origin: RequestOrigin): Promise<TokenResponseView> {
    if (type === undefined || !(ONE_TIME_TYPES as readonly string[]).includes(type)) {
      throw invalidRequest('type must be invite or recovery');
    }
    if (presented === undefined || presented === '') throw invalidRequest('token_hash is required');
    const now = new Date();
    const started = await inTransaction(db, async ({ trx }) => {
      const link = await findOneTimeTokenForUse(trx, hashOneTimeToken(presented));
      if (link === undefined || link.kind !== type || link.used_at !== null || link.revoked_at !== null || link.expires_at <= now) {
        deps.monitor.authFailure({ account: null, enterpriseId: null, ip: origin.ip });
        throw otpExpired();
      }
      const account = await repo.lockAccount(trx, link.user_id);
      if (account === undefined || !account.active) throw otpExpired();
      await markOneTimeTokenUsed(trx, link.id, now);
      return grants.startSession(trx, account, origin, now, { method: type as OneTimeKind, one_time_link_id: link.id });
    });
    // Signed once the session has committed, with no connection held.
    return grants.tokensFor(started);
  }

  /** Recovery requests whose lookup and queueing are still under way (the app waits for them when closing). */
  const pending = new Set<Promise<void>>();

  /**
   * Always `{}`, answered before the address is even looked up: the lookup and, for a known active user,
   * the queueing of a recovery mail happen after the answer, so neither the body nor the time it takes tells
   * a known address from an unknown one.
   */
  async function recover(email: string | undefined, redirectTo: string | undefined): Promise<Record<string, never>> {
    const address = email?.trim() ?? '';
    if (address === '') throw invalidRequest('email is required');
    const redirect = redirectTo === undefined ? null : redirectFor(redirectTo);
    const work = queueRecoveryFor(address, redirect)
      .catch((error: unknown) => deps.log.error({ err: error }, 'recovery request not queued'))
      .finally(() => pending.delete(work));
    pending.add(work);
    return {};
  }

  async function queueRecoveryFor(address: string, redirect: string | null): Promise<void> {
    const account = await repo.findAccountByEmail(db, address);
    if (account === undefined || !account.active) return;
    await inTransaction(db, async ({ trx, onCommit }) => {
      await queueRecovery(trx, { user: account, redirectTo: redirect });
      onCommit(deps.wakeMail);
    });
  }

  async function settle(): Promise<void> {
    while (pending.size > 0) await Promise.all([...pending]);
  }

  /**
   * PUT /user: the signed-in user sets a new password (after an invitation or a recovery link, or at
   * will). Every other session of the user ends, as with the admin call; this one stays signed in.
   * `data.full_name` (Supabase's user metadata) renames them, audited as an update of the user.
   */
  async function updateUser(
    authorization: string | undefined,
    body: { password?: string; email?: string; phone?: string; data?: { full_name?: string } },
    origin: RequestOrigin,
  ): Promise<ProviderUserView> {
    const principal = await authenticate(authorization, origin);
    if (body.email !== undefined || body.phone !== undefined) {
      throw invalidRequest('Only the password and the name can be changed here; an administrator changes e-mail addresses');
    }
    const fullName = body.data?.full_name?.trim();
    if (fullName !== undefined && (fullName.length === 0 || fullName.length > 200)) throw invalidRequest('data.full_name must have 1 to 200 characters');
    if (fullName !== undefined && body.password === undefined) {
      return inTransaction(db, async ({ trx, onCommit }) => {
        const before = (await repo.findAccountById(trx, principal.userId)) as repo.AccountRow;
        if (before.full_name !== fullName) {
          await updateProfile(trx, principal.userId, { full_name: fullName }, new Date());
          await auditOwnChange(trx, principal, origin, { change: 'renamed', changes: { full_name: { from: before.full_name, to: fullName } } });
          // The cached principal carries the name the audit trail records: the next request reads it anew.
          onCommit(() => deps.principals.invalidateUser(principal.userId));
        }
        return presentUser((await repo.findAccountById(trx, principal.userId)) as repo.AccountRow);
      });
    }
    if (fullName !== undefined) throw invalidRequest('Change the password and the name in separate requests');
    if (body.password === undefined) {
      const account = (await repo.findAccountById(db, principal.userId)) as repo.AccountRow;
      return presentUser(account);
    }
    if (body.password.length < MIN_PASSWORD_LENGTH) throw weakPassword(`Password should be at least ${MIN_PASSWORD_LENGTH} characters`);
    const passwordHash = await deps.passwords.hash(body.password);
    return inTransaction(db, async ({ trx, onCommit }) => {
      await setPasswordHash(trx, principal.userId, passwordHash);
      const ended = await revokeUserSessions(trx, principal.userId, 'password_changed', principal.sessionId ?? undefined);
      await revokeOneTimeTokens(trx, principal.userId, new Date());
      await auditOwnChange(trx, principal, origin, { change: 'password_changed', sessions_ended: ended.length });
      onCommit(() => {
        for (const id of ended) deps.principals.invalidateSession(id);
      });
      return presentUser((await repo.findAccountById(trx, principal.userId)) as repo.AccountRow);
    });
  }

  return { verify, recover, updateUser, redirectFor, settle };
}

/** A person's change of their own account (PUT /user), audited on their user in their trail. */
function auditOwnChange(trx: Transaction<DB>, principal: Principal, origin: RequestOrigin, details: Record<string, unknown>) {
  return recordChange(trx, { ...principal, ...origin }, { action: 'update', entityType: 'user', entityId: principal.userId, details, enterpriseId: trailOf(principal) });
}

export type OneTimeLinks = ReturnType<typeof createOneTimeLinks>;
