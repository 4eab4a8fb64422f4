import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.js';
import { addressKey, type RateLimiter } from '../http/rate-limit/rate-limit.hook.js';
import type { ApiTokenResolver } from './api-tokens.js';
import { bearerToken, isJwtShaped } from './bearer.js';
import type { Principal } from './principal.js';
import type { PrincipalResolver } from './principal-resolver.js';
import { InvalidTokenError, type TokenVerifier, type VerifiedClaims } from './token-verifier.js';

const QUERY_TOKEN_NAMES = ['access_token', 'token', 'jwt'];

export interface AuthFailureObserver {
  /** A refused token (D9.5 counts these per account and per address). */
  invalidToken(request: FastifyRequest, userId: string | null): void;
}

export interface GateDeps {
  verify: TokenVerifier;
  resolver: PrincipalResolver;
  limiter: RateLimiter;
  observer: AuthFailureObserver;
  /** Integration tokens (service accounts), told apart from JSON Web Tokens by their prefix; absent: none accepted. */
  apiTokens?: ApiTokenResolver;
}

function hasQueryToken(url: string): boolean {
  const query = url.indexOf('?');
  if (query === -1) return false;
  const params = new URLSearchParams(url.slice(query + 1));
  return QUERY_TOKEN_NAMES.some((name) => params.has(name));
}

type TokenCheck =
  | { kind: 'valid'; claims: VerifiedClaims }
  /** An integration token, resolved to its service account (or refused from this address). */
  | { kind: 'api_token'; principal: Principal; addressRefused: boolean }
  | { kind: 'missing' }
  | { kind: 'malformed' }
  | { kind: 'invalid' };

async function checkToken(request: FastifyRequest, deps: GateDeps): Promise<TokenCheck> {
  const header = request.headers.authorization;
  if (header === undefined) return { kind: 'missing' };
  const token = bearerToken(header);
  if (token !== null && deps.apiTokens?.accepts(token) === true) {
    const resolution = await deps.apiTokens.resolve(token, request.ip);
    if (resolution.kind === 'invalid') return { kind: 'invalid' };
    return { kind: 'api_token', principal: resolution.principal, addressRefused: resolution.kind === 'address_refused' };
  }
  if (token === null || !isJwtShaped(token)) return { kind: 'malformed' };
  try {
    return { kind: 'valid', claims: await deps.verify(token) };
  } catch (error) {
    if (error instanceof InvalidTokenError) return { kind: 'invalid' };
    throw error;
  }
}

const unauthorized = (why: string) => new AppError('UNAUTHORIZED', why);

/**
 * The gate of every /api/v1 route (D4, D8), attached to the encapsulated plugin that holds them, so it
 * follows the matched route and never the spelling of the URL. One hook, one token verification: the
 * verified `sub` keys the rate limit (a refused token counts against its address), then the principal is
 * resolved from our records. Runs before body parsing, so a refused caller costs no body work.
 */
export function registerApiGate(api: FastifyInstance, deps: GateDeps): void {
  api.addHook('onRequest', async (request, reply) => {
    const check = await checkToken(request, deps);
    // A service account is counted as a user is: under its own id, whatever the address.
    const counted = check.kind === 'valid' ? `user:${check.claims.sub}` : check.kind === 'api_token' ? `user:${check.principal.userId}` : addressKey(request);
    await deps.limiter(request, reply, counted);
    if (hasQueryToken(request.url)) {
      throw new AppError('BAD_REQUEST', 'Tokens are accepted only in the Authorization header, never in the URL');
    }
    switch (check.kind) {
      case 'missing':
        throw unauthorized('Missing Authorization header');
      case 'malformed':
        deps.observer.invalidToken(request, null);
        throw unauthorized('Authorization must be a Bearer JSON Web Token');
      case 'invalid':
        deps.observer.invalidToken(request, null);
        throw unauthorized('Invalid or expired token');
      case 'api_token':
        request.principal = check.principal;
        if (check.addressRefused) throw new AppError('FORBIDDEN', 'This token is not accepted from your address (its IP allow-list)');
        return;
      case 'valid':
        break;
    }
    const { claims } = check;
    const resolution = await deps.resolver.resolve(claims);
    switch (resolution.kind) {
      case 'ok':
        request.principal = resolution.principal;
        return;
      case 'no_membership':
        // Kept on the request so that the refusal's access_denied entry names the user.
        request.principal = resolution.principal;
        throw new AppError('FORBIDDEN', 'The user is not assigned to an enterprise');
      case 'unverified_email':
        throw new AppError(
          'FORBIDDEN',
          "The token's e-mail address is not verified (email_verified is not true): it cannot be linked to a user of this service",
        );
      case 'unknown_user':
      case 'inactive_user':
      case 'revoked_session':
        deps.observer.invalidToken(request, claims.sub);
        throw unauthorized(resolution.kind === 'revoked_session' ? 'The session has ended' : 'Invalid or expired token');
    }
  });
}
