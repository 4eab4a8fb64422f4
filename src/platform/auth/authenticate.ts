import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../http/errors.js';
import type { PrincipalResolver } from './principal-resolver.js';
import { InvalidTokenError, type TokenVerifier } from './token-verifier.js';

const QUERY_TOKEN_NAMES = ['access_token', 'token', 'jwt'];

export interface AuthFailureObserver {
  /** A refused token (D9.5 counts these per account and per address). */
  invalidToken(request: FastifyRequest, userId: string | null): void;
}

function hasQueryToken(url: string): boolean {
  const query = url.indexOf('?');
  if (query === -1) return false;
  const params = new URLSearchParams(url.slice(query + 1));
  return QUERY_TOKEN_NAMES.some((name) => params.has(name));
}

const unauthorized = (why: string) => new AppError('UNAUTHORIZED', why);

/**
 * The bearer check in front of every /api/v1 route that is not public (D4): verify, then resolve the
 * principal from our records. Runs before body parsing, so a refused caller costs no body work.
 */
export function registerAuthentication(
  app: FastifyInstance,
  deps: { verify: TokenVerifier; resolver: PrincipalResolver; observer: AuthFailureObserver },
): void {
  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/v1/') || request.routeOptions.config?.public === true) return;
    if (hasQueryToken(request.url)) {
      throw new AppError('BAD_REQUEST', 'Tokens are accepted only in the Authorization header, never in the URL');
    }
    const header = request.headers.authorization;
    if (header === undefined) throw unauthorized('Missing Authorization header');
    const match = /^Bearer ([A-Za-z0-9\-_]+\.[A-Za-z0-9\-_]+\.[A-Za-z0-9\-_]*)$/.exec(header);
    if (match === null) {
      deps.observer.invalidToken(request, null);
      throw unauthorized('Authorization must be a Bearer JSON Web Token');
    }
    let claims;
    try {
      claims = await deps.verify(match[1] as string);
    } catch (error) {
      if (!(error instanceof InvalidTokenError)) throw error;
      deps.observer.invalidToken(request, null);
      throw unauthorized('Invalid or expired token');
    }
    const resolution = await deps.resolver.resolve(claims);
    switch (resolution.kind) {
      case 'ok':
        request.principal = resolution.principal;
        return;
      case 'no_membership':
        // Kept on the request so that the refusal's access_denied entry names the user.
        request.principal = resolution.principal;
        throw new AppError('FORBIDDEN', 'The user is not assigned to an enterprise');
      case 'unknown_user':
      case 'inactive_user':
      case 'revoked_session':
        deps.observer.invalidToken(request, claims.sub);
        throw unauthorized(resolution.kind === 'revoked_session' ? 'The session has ended' : 'Invalid or expired token');
    }
  });
}
