import { trailOf } from '../../../platform/audit/audit-events.js';
import { writeAudit } from '../../../platform/audit/audit-writer.js';
import { inTransaction } from '../../../platform/db/transaction.js';
import type { Principal, RequestOrigin } from '../../../platform/auth/principal.js';
import type { PrincipalResolver } from '../../../platform/auth/principal-resolver.js';
import { revokeSession, revokeUserSessions } from '../sessions.repository.js';
import { InvalidTokenError, type TokenVerifier } from '../../../platform/auth/token-verifier.js';
import { bearerToken } from '../../../platform/auth/bearer.js';
import { isServiceRoleBearer } from '../credentials.js';
import { invalidRequest, invalidToken, notAdmin, unsupportedGrantType, userNotFound, weakPassword } from './provider.errors.js';
import { presentUser, type ProviderUserView, type TokenResponseView } from './provider.presenter.js';
import * as repo from './provider.repository.js';
import { setPasswordHash } from '../users.repository.js';
import { createTokenGrants, type TokenGrantBody, type TokenGrantsDeps } from './token-grants.service.js';
import { MIN_PASSWORD_LENGTH, createOneTimeLinks, type OneTimeLinksDeps } from './one-time-links.service.js';
import { revokeOneTimeTokens } from '../one-time-tokens.repository.js';
import { createSsoSignIn, type SsoSignInDeps } from './sso-sign-in.service.js';

/** What the provider needs from the platform, and nothing more. */
export interface ProviderDeps extends TokenGrantsDeps, OneTimeLinksDeps, SsoSignInDeps {
  verify: TokenVerifier;
  principals: PrincipalResolver;
}

export type LogoutScope = 'local' | 'global' | 'others';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function createProviderService(deps: ProviderDeps) {
  const { db } = deps;
  const grants = createTokenGrants(deps);

  async function token(grantType: string | undefined, body: TokenGrantBody, origin: RequestOrigin): Promise<TokenResponseView> {
    if (grantType === 'password') return grants.signInWithPassword(body, origin);
    if (grantType === 'refresh_token') return grants.refresh(body, origin);
    throw unsupportedGrantType();
  }

  /**
   * The /api/v1 authentication hook does not guard /auth/v1, so the provider checks bearer tokens itself,
   * with the same verifier and resolver: a token the API would refuse (bad signature, expired, unknown or
   * deactivated user, revoked session) is refused here too. A user without a membership is still a valid
   * signed-in user here (the API's 403 is about authorisation, not identity).
   */
  async function authenticate(authorization: string | undefined, origin: RequestOrigin): Promise<Principal> {
    const presented = bearerToken(authorization);
    if (presented === null) throw invalidToken('This endpoint requires a Bearer token', 'no_authorization');
    let claims;
    try {
      claims = await deps.verify(presented);
    } catch (error) {
      if (!(error instanceof InvalidTokenError)) throw error;
      deps.monitor.authFailure({ account: null, enterpriseId: null, ip: origin.ip });
      throw invalidToken('Invalid JWT: unable to parse or verify signature, or token expired');
    }
    const resolution = await deps.principals.resolve(claims);
    if (resolution.kind === 'ok' || resolution.kind === 'no_membership') return resolution.principal;
    deps.monitor.authFailure({ account: claims.sub, enterpriseId: null, ip: origin.ip });
    throw resolution.kind === 'revoked_session'
      ? invalidToken('Session from session_id claim in JWT does not exist or has ended', 'session_not_found')
      : invalidToken('User from sub claim in JWT does not exist or is deactivated', 'user_not_found');
  }

  async function user(authorization: string | undefined, origin: RequestOrigin): Promise<ProviderUserView> {
    const principal = await authenticate(authorization, origin);
    const account = await repo.findAccountById(db, principal.userId);
    if (account === undefined) throw invalidToken('User from sub claim in JWT does not exist', 'user_not_found');
    return presentUser(account);
  }

  /** Ends sessions per `scope` and records a `logout` entry in the same transaction (D3, D10.3). */
  async function logout(authorization: string | undefined, scope: LogoutScope | undefined, origin: RequestOrigin): Promise<void> {
    const principal = await authenticate(authorization, origin);
    const sessionId = principal.sessionId as string; // the embedded resolver refuses tokens without one
    const chosen = scope ?? 'local';
    await inTransaction(db, async ({ trx, onCommit }) => {
      const revoked =
        chosen === 'local'
          ? (await revokeSession(trx, sessionId, 'logout')) ? [sessionId] : []
          : await revokeUserSessions(trx, principal.userId, `logout_${chosen}`, chosen === 'others' ? sessionId : undefined);
      await writeAudit(trx, {
        enterpriseId: trailOf(principal),
        actor: { userId: principal.userId, email: principal.email, fullName: principal.fullName },
        action: 'logout',
        entityType: 'user',
        entityId: principal.userId,
        details: { scope: chosen, session_id: sessionId, sessions_ended: revoked.length },
        status: 'success',
        ip: origin.ip,
        userAgent: origin.userAgent,
        operation: origin.operation,
      });
      // This instance refuses the ended sessions' access tokens at once; others within PRINCIPAL_TTL_MS.
      onCommit(() => {
        for (const id of revoked) deps.principals.invalidateSession(id);
      });
    });
  }

  /** D3 admin call (service-role key): sets the password of a user the service already knows. */
  async function setPassword(
    authorization: string | undefined,
    userId: string,
    body: { password?: string },
    /** Absent when called in process (the demo command) rather than over HTTP. */
    origin?: RequestOrigin,
  ): Promise<ProviderUserView> {
    if (!isServiceRoleBearer(authorization, deps.secrets)) throw notAdmin();
    if (body.password === undefined) throw invalidRequest('password is required');
    // D10.4: too short is 422. An id that is not a UUID names nobody either: 404, as GoTrue answers.
    if (body.password.length < MIN_PASSWORD_LENGTH) {
      throw weakPassword(`Password should be at least ${MIN_PASSWORD_LENGTH} characters`);
    }
    if (!UUID.test(userId)) throw userNotFound();
    const passwordHash = await deps.passwords.hash(body.password);
    return inTransaction(db, async ({ trx, onCommit }) => {
      if (!(await setPasswordHash(trx, userId, passwordHash))) throw userNotFound();
      // A password set by an administrator is a reset: whoever held the old one is signed out everywhere.
      const ended = await revokeUserSessions(trx, userId, 'password_set');
      await revokeOneTimeTokens(trx, userId, new Date());
      onCommit(() => deps.principals.invalidateUser(userId));
      const account = (await repo.findAccountById(trx, userId)) as repo.AccountRow;
      // The caller is the service-role key, not a user: the entry names no actor and says so.
      await writeAudit(trx, {
        enterpriseId: account.trail_enterprise_id,
        actor: { userId: null, email: null, fullName: null },
        action: 'update',
        entityType: 'user',
        entityId: userId,
        details: { change: 'password_set', actor: 'service_role', sessions_ended: ended.length },
        operation: origin?.operation ?? null,
        ip: origin?.ip ?? null,
        userAgent: origin?.userAgent ?? null,
      });
      return presentUser(account);
    });
  }

  const links = createOneTimeLinks(deps, grants, authenticate);
  const sso = createSsoSignIn(deps, grants, links.redirectFor);

  return { token, user, logout, setPassword, verify: links.verify, recover: links.recover, updateUser: links.updateUser, redirectFor: links.redirectFor, settle: links.settle, sso };
}

export type ProviderService = ReturnType<typeof createProviderService>;
