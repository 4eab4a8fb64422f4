import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.js';
import { addressKey, type RateLimiter } from '../http/rate-limit/rate-limit.hook.js';
import { bearerJwt } from './bearer.js';
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
}

function hasQueryToken(url: string): boolean {
  const query = url.indexOf('?');
  if (query === -1) return false;
  const params = new URLSearchParams(url.slice(query + 1));
  return QUERY_TOKEN_NAMES.some((name) => params.has(name));
}

type TokenCheck = { kind: 'valid'; claims: VerifiedClaims } | { kind: 'missing' } | { kind: 'malformed' } | { kind: 'invalid' };

async function checkToken(request: FastifyRequest, verify: TokenVerifier): Promise<TokenCheck> {
  const header = request.headers.authorization;
  if (header === undefined) return { kind: 'missing' };
  const token = bearerJwt(header);
  if (token === null) return { kind: 'malformed' };
  try {
    return { kind: 'valid', claims: await verify(token) };
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
    const check = await checkToken(request, deps.verify);
    await deps.limiter(request, reply, check.kind === 'valid' ? `user:${check.claims.sub}` : addressKey(request));
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
