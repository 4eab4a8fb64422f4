import type { Transaction } from 'kysely';
import { writeAudit } from '../../../platform/audit/audit-writer.js';
import type { AuditEvent } from '../../../platform/audit/audit-events.js';
import type { DB } from '../../../platform/db/schema.js';
import { inTransaction } from '../../../platform/db/transaction.js';
import type { Kysely } from 'kysely';
import type { Monitor } from '../../../platform/monitoring/monitor.js';
import { signAccessToken } from './access-token.js';
import type { RequestOrigin } from '../../../platform/auth/principal.js';
import type { PrincipalResolver } from '../../../platform/auth/principal-resolver.js';
import type { AuthSecrets } from '../../../platform/auth/secrets.js';
import { revokeSession } from '../sessions.repository.js';
import { ACCESS_TOKEN_TTL_SECONDS } from '../../../platform/auth/token-lifetimes.js';
import { REFRESH_TOKEN_TTL_MS, hashRefreshToken, newRefreshToken } from '../credentials.js';
import { ProviderError, invalidCredentials, invalidRefreshToken, invalidRequest, ssoRequired } from './provider.errors.js';
import { ssoEnforcementApplies } from '../integrations.policy.js';
import { emailDomain } from '../sso/email-domain.js';
import { passwordRefusedBySso } from '../sso/sso.repository.js';
import { presentUser, type TokenResponseView } from './provider.presenter.js';
import * as repo from './provider.repository.js';
import { recordSignIn, upgradePasswordHash } from '../users.repository.js';
import type { PasswordHasher } from '../passwords.js';
import { rememberSignInOrigin } from './sign-in-origins.js';

export interface TokenGrantBody {
  email?: string;
  password?: string;
  refresh_token?: string;
}

/** A session whose rows are written, with the refresh token to hand out; its access token is not yet signed. */
export interface StartedSession {
  account: repo.AccountRow;
  sessionId: string;
  refreshToken: string;
  now: Date;
}

type SignInOutcome = { started: StartedSession } | { refused: repo.AccountRow; error?: ProviderError };

/** What the grants need of the provider's dependencies (provider.service.ts adds the rest). */
export interface TokenGrantsDeps {
  db: Kysely<DB>;
  secrets: AuthSecrets;
  tokenClaims: { issuer: string; audience: string };
  principals: Pick<PrincipalResolver, 'invalidateSession'>;
  monitor: Pick<Monitor, 'authFailure'>;
  passwords: PasswordHasher;
}

/** D3's two grants: password sign-in and refresh-token rotation. */
export function createTokenGrants(deps: TokenGrantsDeps) {
  const { db, monitor } = deps;

  /** Stores the session's next refresh token (in the caller's transaction); the token is signed after commit. */
  async function addRefreshToken(trx: Transaction<DB>, account: repo.AccountRow, sessionId: string, now: Date): Promise<StartedSession> {
    const refresh = newRefreshToken();
    await repo.insertRefreshToken(trx, sessionId, refresh.hash, new Date(now.getTime() + REFRESH_TOKEN_TTL_MS));
    return { account, sessionId, refreshToken: refresh.token, now };
  }

  /**
   * Signs the access token of a session whose rows have committed. Signing (WebCrypto, on libuv's pool) is
   * kept out of every transaction, so that a burst of sign-ins does not hold pooled connections while it waits
   * for the CPU behind queued scrypt work. Should it fail, the committed session is one nobody holds a token of.
   */
  async function tokensFor(started: StartedSession): Promise<TokenResponseView> {
    const { account, sessionId, now } = started;
    const access = await signAccessToken(
      { userId: account.id, email: account.email, sessionId },
      deps.secrets,
      deps.tokenClaims,
      Math.floor(now.getTime() / 1000),
    );
    return {
      access_token: access.token,
      token_type: 'bearer',
      expires_in: ACCESS_TOKEN_TTL_SECONDS,
      expires_at: access.expiresAt,
      refresh_token: started.refreshToken,
      user: presentUser(account),
    };
  }

  function loginEvent(account: repo.AccountRow, origin: RequestOrigin, status: 'success' | 'failed', details: Record<string, unknown>): AuditEvent {
    return {
      enterpriseId: account.trail_enterprise_id,
      actor: { userId: account.id, email: account.email, fullName: account.full_name },
      action: 'login',
      entityType: 'user',
      entityId: account.id,
      details: { method: 'password', ...details },
      status,
      ip: origin.ip,
      userAgent: origin.userAgent,
      operation: origin.operation,
    };
  }

  async function signInWithPassword(body: TokenGrantBody, origin: RequestOrigin): Promise<TokenResponseView> {
    const email = body.email?.trim() ?? '';
    const password = body.password ?? '';
    if (email === '' || password === '') throw invalidRequest('email and password are required');
    const account = await repo.findAccountByEmail(db, email);
    // Always pay for one scrypt, so that unknown and known accounts answer in the same time.
    const check = await deps.passwords.verify(password, account?.password_hash ?? null);
    if (account === undefined || !account.active || !check.matches) {
      if (account !== undefined) {
        // A refused attempt on a known account is evidence worth keeping (D3); an unknown e-mail has no account to file it under.
        const reason = !account.active ? 'user_inactive' : account.password_hash === null ? 'no_password' : 'wrong_password';
        await inTransaction(db, ({ trx }) => writeAudit(trx, loginEvent(account, origin, 'failed', { reason })));
      }
      monitor.authFailure({ account: email.toLowerCase(), enterpriseId: account?.trail_enterprise_id ?? null, ip: origin.ip, signIn: true });
      throw invalidCredentials();
    }
    // A hash of an older, cheaper cost is replaced now that the password is known (scrypt's cost only rises).
    const upgraded = check.upgrade ? await deps.passwords.hash(password) : null;
    const now = new Date();
    // The password was checked, and any new hash made, with no connection held; this short transaction
    // re-reads the account under a row lock, since a deactivation or a password change may have committed
    // since the read, and writes the session, its refresh token and the `login` entry together.
    const outcome = await inTransaction<SignInOutcome>(db, async ({ trx }) => {
      const current = await repo.lockAccount(trx, account.id);
      if (current === undefined || !current.active || current.password_hash !== account.password_hash) {
        const refusedAs = current ?? account;
        const reason = current !== undefined && !current.active ? 'user_inactive' : 'wrong_password';
        await writeAudit(trx, loginEvent(refusedAs, origin, 'failed', { reason }));
        return { refused: refusedAs };
      }
      // An enterprise that enforces its single sign-on takes the password of its domains' members (super admins excepted).
      if (ssoEnforcementApplies(current) && (await passwordRefusedBySso(trx, current.id, emailDomain(current.email)))) {
        await writeAudit(trx, loginEvent(current, origin, 'failed', { reason: 'sso_required' }));
        return { refused: current, error: ssoRequired() };
      }
      if (upgraded !== null) await upgradePasswordHash(trx, current.id, current.password_hash as string, upgraded);
      return { started: await startSession(trx, current, origin, now, {}) };
    });
    if ('refused' in outcome) {
      if (outcome.error !== undefined) throw outcome.error;
      monitor.authFailure({ account: email.toLowerCase(), enterpriseId: outcome.refused.trail_enterprise_id, ip: origin.ip, signIn: true });
      throw invalidCredentials();
    }
    return tokensFor(outcome.started);
  }

  /**
   * A new session with its refresh token, the sign-in recorded and its `login` entry, in the caller's
   * transaction: a password sign-in, or a one-time link followed (details name the method). Its origin
   * becomes one the account signs in from (sign-in-origins.ts). The caller holds the user's row lock, and
   * passes the result to `tokensFor` once the transaction has committed.
   */
  async function startSession(
    trx: Transaction<DB>,
    account: repo.AccountRow,
    origin: RequestOrigin,
    now: Date,
    details: Record<string, unknown>,
  ): Promise<StartedSession> {
    const signedIn = { ...account, last_sign_in_at: now };
    const sessionId = await repo.createSession(trx, account.id);
    await recordSignIn(trx, account.id, now);
    await rememberSignInOrigin(trx, deps.secrets.deviceKey, account.id, origin, now);
    const started = await addRefreshToken(trx, signedIn, sessionId, now);
    await writeAudit(trx, loginEvent(signedIn, origin, 'success', { session_id: sessionId, ...details }));
    return started;
  }

  type RefreshOutcome = { started: StartedSession } | { refused: ProviderError };

  /**
   * Rotation in one transaction (the access token is signed after it commits). A token already replaced, whether seen so by the read or lost to a
   * concurrent refresh at the claim, is a reuse: it may have been stolen, so the whole session ends
   * (D3), and its access tokens are dropped from the resolver's cache once that has committed.
   */
  async function refresh(body: TokenGrantBody, origin: RequestOrigin): Promise<TokenResponseView> {
    const presented = body.refresh_token ?? '';
    if (presented === '') throw invalidRequest('refresh_token is required');
    const now = new Date();
    const outcome = await inTransaction<RefreshOutcome>(db, async ({ trx, onCommit }) => {
      const token = await repo.findRefreshToken(trx, hashRefreshToken(presented));
      if (token === undefined) return { refused: invalidRefreshToken('Invalid Refresh Token: Refresh Token Not Found') };
      const reuse = async (): Promise<RefreshOutcome> => {
        await revokeSession(trx, token.session_id, 'refresh_token_reuse');
        onCommit(() => deps.principals.invalidateSession(token.session_id));
        return { refused: invalidRefreshToken('Invalid Refresh Token: Already Used', 'refresh_token_already_used') };
      };
      if (token.replaced_at !== null) return reuse();
      if (token.session_revoked_at !== null) return { refused: invalidRefreshToken('Invalid Refresh Token: Session Revoked') };
      if (token.expires_at.getTime() <= now.getTime()) {
        return { refused: invalidRefreshToken('Invalid Refresh Token: Refresh Token Expired', 'session_expired') };
      }
      // Locked as a sign-in locks it: a deactivation either committed before (refused here) or waits and
      // then ends this session.
      const account = await repo.lockAccount(trx, token.user_id);
      if (account === undefined || !account.active) {
        return { refused: invalidRefreshToken('Invalid Refresh Token: User Deactivated', 'user_banned') };
      }
      if (!(await repo.claimRefreshToken(trx, token.id, now))) return reuse();
      await repo.touchSession(trx, token.session_id, now);
      return { started: await addRefreshToken(trx, account, token.session_id, now) };
    });
    if ('refused' in outcome) {
      // Guessing or replaying refresh tokens counts towards the per-address authentication alert.
      monitor.authFailure({ account: null, enterpriseId: null, ip: origin.ip });
      throw outcome.refused;
    }
    return tokensFor(outcome.started);
  }

  /** A refused sign-in of a known account, in the caller's transaction: the `login` entry with status failed. */
  async function recordRefusal(trx: Transaction<DB>, account: repo.AccountRow, origin: RequestOrigin, details: Record<string, unknown>): Promise<void> {
    await writeAudit(trx, loginEvent(account, origin, 'failed', details));
  }

  return { signInWithPassword, refresh, startSession, tokensFor, recordRefusal };
}
