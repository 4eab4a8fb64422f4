import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { App, Platform } from '../../../platform/module.js';
import { limitByAddress, type RateLimiter } from '../../../platform/http/rate-limit/rate-limit.hook.js';
import { originOf } from '../../../platform/auth/principal.js';
import type { AuthSecrets } from '../../../platform/auth/secrets.js';
import { apiKeyKind } from '../credentials.js';
import type { PasswordHasher } from '../passwords.js';
import { limitSignInsPerAccount } from './provider-rate-limit.js';
import { createSignInDevices, type SignInDevices } from './sign-in-devices.js';
import { invalidApiKey, renderProviderError } from './provider.errors.js';
import {
  adminSetPasswordSchema,
  jwksSchema,
  logoutSchema,
  recoverSchema,
  tokenSchema,
  updateUserSchema,
  userSchema,
  verifySchema,
} from './provider.schemas.js';
import { registerVerifyLink } from './verify-link.routes.js';
import { registerSsoBrowserRoutes, registerSsoStart } from './sso-sign-in.routes.js';
import { registerSamlRoutes } from './saml-sign-in.routes.js';
import { createOidcClients } from '../sso/oidc-client.js';
import { createSamlClients } from '../sso/saml-client.js';
import { limitRecoveriesPerAccount } from './provider-rate-limit.js';
import { createProviderService, type ProviderService } from './provider.service.js';

export const PROVIDER_PREFIX = '/auth/v1';

/** The embedded identity provider (decisions.md D3), mounted at /auth/v1. */
export async function registerIdentityProvider(
  app: App,
  platform: Platform & { secrets: AuthSecrets },
  own: { limiter: RateLimiter; signInLimiter: RateLimiter; recoveryLimiter: RateLimiter; passwords: PasswordHasher },
): Promise<void> {
  const saml = createSamlClients(platform.config);
  const service = createProviderService({
    passwords: own.passwords,
    db: platform.database.db,
    secrets: platform.secrets,
    tokenClaims: { issuer: platform.config.auth.issuer, audience: platform.config.auth.audience },
    verify: platform.verify,
    principals: platform.principals,
    monitor: platform.monitor,
    redirectUrls: platform.config.auth.redirectUrls,
    log: platform.log,
    wakeMail: () => platform.mail.wake(),
    publicUrl: platform.config.publicUrl,
    oidc: createOidcClients(platform.config.sso),
    saml,
  });
  const devices = createSignInDevices({
    db: platform.database.db,
    deviceKey: platform.secrets.deviceKey,
    cookiePath: PROVIDER_PREFIX,
    secureCookie: new URL(platform.config.publicUrl).protocol === 'https:',
  });
  await app.register(
    async (scope) => {
      // Errors under /auth/v1 speak GoTrue's shape; what this handler rethrows goes to the platform's.
      scope.setErrorHandler(async (error, _request, reply) => renderProviderError(error, reply));
      // Recovery requests finish their lookup before the database closes.
      scope.addHook('onClose', async () => service.settle());
      // Counted per address whatever the request carries: a bearer token must not buy an attacker a fresh
      // budget of password guesses per account it holds.
      limitByAddress(scope, own.limiter);
      registerKeySet(scope, platform.secrets);
      // The mail's link is opened by a browser, which has no apikey (as with Supabase Auth).
      registerVerifyLink(scope, service, devices);
      // Single sign-on's browser legs (the redirect to the enterprise's provider, its callback): no apikey either.
      const ssoCookie = { path: `${PROVIDER_PREFIX}/sso`, secure: new URL(platform.config.publicUrl).protocol === 'https:' };
      registerSsoBrowserRoutes(scope, service.sso, devices, { publicUrl: platform.config.publicUrl, cookie: ssoCookie });
      await registerSamlRoutes(scope, service.sso, saml, devices);
      await scope.register(async (guarded) => {
        // Before body parsing, so that a caller without a valid key costs no body work.
        guarded.addHook('onRequest', async (request, reply) => {
          if (apiKeyKind(request.headers.apikey, platform.secrets) === null) {
            return reply.status(401).send(invalidApiKey().body());
          }
        });
        registerCalls(guarded, service, devices, own.signInLimiter, own.recoveryLimiter);
        registerSsoStart(guarded, service.sso, ssoCookie);
      });
    },
    { prefix: PROVIDER_PREFIX },
  );
}

/** Public keys only, for any verifier of our tokens: no apikey, cacheable. */
function registerKeySet(scope: FastifyInstance, secrets: AuthSecrets): void {
  for (const [url, operation] of [
    ['/.well-known/jwks.json', 'auth.jwks'],
    ['/jwks', 'auth.jwks.alias'],
  ] as const) {
    scope.get(url, { schema: jwksSchema(operation), config: { public: true } }, async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=600');
      // The signing key and the keys retired by a rotation that still verify, public members only.
      return { keys: (await secrets.signingKeys.publicKeys()).map(({ kty, crv, x, y, kid, alg, use }) => ({ kty, crv, x, y, kid, alg, use })) };
    });
  }
}

/** Token responses are not to be stored by any cache (RFC 6749 5.1); nor is the user they describe. */
function noStore(reply: FastifyReply): void {
  reply.header('cache-control', 'no-store');
  reply.header('pragma', 'no-cache');
}

function registerCalls(
  scope: FastifyInstance,
  service: ProviderService,
  devices: SignInDevices,
  signInLimiter: RateLimiter,
  recoveryLimiter: RateLimiter,
): void {
  const typed = scope.withTypeProvider<TypeBoxTypeProvider>();

  typed.post(
    '/token',
    { schema: tokenSchema, config: { public: true }, preHandler: limitSignInsPerAccount(signInLimiter, devices) },
    async (request, reply) => {
      noStore(reply);
      const tokens = await service.token(request.query.grant_type, request.body, originOf(request));
      if (request.query.grant_type === 'password') devices.rememberDevice(request, reply, tokens.user.id);
      return tokens;
    },
  );

  typed.post('/logout', { schema: logoutSchema, config: { public: true } }, async (request, reply) => {
    await service.logout(request.headers.authorization, request.query.scope, originOf(request));
    return reply.status(204).send(null);
  });

  typed.get('/user', { schema: userSchema, config: { public: true } }, async (request, reply) => {
    noStore(reply);
    return service.user(request.headers.authorization, originOf(request));
  });

  typed.put('/user', { schema: updateUserSchema, config: { public: true } }, async (request, reply) => {
    noStore(reply);
    return service.updateUser(request.headers.authorization, request.body, originOf(request));
  });

  typed.post('/verify', { schema: verifySchema, config: { public: true } }, async (request, reply) => {
    noStore(reply);
    if (request.query.redirect_to !== undefined) service.redirectFor(request.query.redirect_to);
    const session = await service.verify(request.body.type, request.body.token_hash, originOf(request));
    devices.rememberDevice(request, reply, session.user.id);
    return session;
  });

  typed.post(
    '/recover',
    { schema: recoverSchema, config: { public: true }, preHandler: limitRecoveriesPerAccount(recoveryLimiter) },
    async (request) => service.recover(request.body.email, request.query.redirect_to),
  );

  typed.put(
    '/admin/users/:user_id',
    { schema: adminSetPasswordSchema, config: { public: true } },
    async (request) =>
      service.setPassword(request.headers.authorization, request.params.user_id, request.body, originOf(request)),
  );
}
