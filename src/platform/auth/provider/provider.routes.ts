import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { App, Platform } from '../../module.js';
import { limitByAddress, type RateLimiter } from '../../http/rate-limit/rate-limit.hook.js';
import { originOf } from '../principal.js';
import type { AuthSecrets } from '../secrets.js';
import { apiKeyKind } from './credentials.js';
import { invalidApiKey, renderProviderError } from './provider.errors.js';
import {
  adminSetPasswordSchema,
  jwksSchema,
  logoutSchema,
  tokenSchema,
  userSchema,
} from './provider.schemas.js';
import { createProviderService, type ProviderService } from './provider.service.js';

export const PROVIDER_PREFIX = '/auth/v1';

/** The embedded identity provider (decisions.md D3), mounted at /auth/v1. */
export async function registerIdentityProvider(
  app: App,
  platform: Platform & { secrets: AuthSecrets },
  limiter: RateLimiter,
): Promise<void> {
  const service = createProviderService({
    db: platform.database.db,
    secrets: platform.secrets,
    tokenClaims: { issuer: platform.config.auth.issuer, audience: platform.config.auth.audience },
    verify: platform.verify,
    principals: platform.principals,
    monitor: platform.monitor,
  });
  await app.register(
    async (scope) => {
      // Errors under /auth/v1 speak GoTrue's shape; what this handler rethrows goes to the platform's.
      scope.setErrorHandler(async (error, _request, reply) => renderProviderError(error, reply));
      // Counted per address whatever the request carries: a bearer token must not buy an attacker a fresh
      // budget of password guesses per account it holds.
      limitByAddress(scope, limiter);
      registerKeySet(scope, platform.secrets);
      await scope.register(async (guarded) => {
        // Before body parsing, so that a caller without a valid key costs no body work.
        guarded.addHook('onRequest', async (request, reply) => {
          if (apiKeyKind(request.headers.apikey, platform.secrets) === null) {
            return reply.status(401).send(invalidApiKey().body());
          }
        });
        registerCalls(guarded, service);
      });
    },
    { prefix: PROVIDER_PREFIX },
  );
}

/** Public keys only, for any verifier of our tokens: no apikey, cacheable. */
function registerKeySet(scope: FastifyInstance, secrets: AuthSecrets): void {
  const { kty, crv, x, y, kid, alg, use } = secrets.signingKey.publicJwk;
  const keySet = { keys: [{ kty, crv, x, y, kid, alg, use }] };
  for (const [url, operation] of [
    ['/.well-known/jwks.json', 'auth.jwks'],
    ['/jwks', 'auth.jwks.alias'],
  ] as const) {
    scope.get(url, { schema: jwksSchema(operation), config: { public: true } }, async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=600');
      return keySet;
    });
  }
}

function registerCalls(scope: FastifyInstance, service: ProviderService): void {
  const typed = scope.withTypeProvider<TypeBoxTypeProvider>();

  typed.post('/token', { schema: tokenSchema, config: { public: true } }, async (request) =>
    service.token(request.query.grant_type, request.body, originOf(request)),
  );

  typed.post('/logout', { schema: logoutSchema, config: { public: true } }, async (request, reply) => {
    await service.logout(request.headers.authorization, request.query.scope, originOf(request));
    return reply.status(204).send(null);
  });

  typed.get('/user', { schema: userSchema, config: { public: true } }, async (request) =>
    service.user(request.headers.authorization, originOf(request)),
  );

  typed.put(
    '/admin/users/:user_id',
    { schema: adminSetPasswordSchema, config: { public: true } },
    async (request) =>
      service.setPassword(request.headers.authorization, request.params.user_id, request.body, originOf(request)),
  );
}
