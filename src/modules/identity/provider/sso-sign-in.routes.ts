import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { originOf } from '../../../platform/auth/principal.js';
import { invalidRequest } from './provider.errors.js';
import { sessionFragment, type TokenResponseView } from './provider.presenter.js';
import type { ProviderError } from './provider.errors.js';
import { ssoCallbackSchema, ssoRedirectSchema, ssoStartSchema } from './provider.schemas.js';
import type { SignInDevices } from './sign-in-devices.js';
import { SSO_FLOW_TTL_SECONDS, browserSecretOr, type SsoSignIn, type SsoStart } from './sso-sign-in.service.js';

const FLOW_COOKIE = 'sso_flow';

export interface SsoCookie {
  path: string;
  secure: boolean;
}

export function presentedSecret(request: FastifyRequest): string | null {
  const prefix = `${FLOW_COOKIE}=`;
  const pair = (request.headers.cookie ?? '').split(';').map((part) => part.trim()).find((part) => part.startsWith(prefix));
  return pair === undefined ? null : pair.slice(prefix.length);
}

/**
 * The browser's secret for its sign-ins, in a cookie only single sign-on's paths get: the callback finds the
 * sign-in its state names only in the browser that started it (no sign-in planted from elsewhere). OIDC:
 * SameSite=Lax, the provider's redirect back is a top-level navigation from another site. SAML: the IdP's form
 * is a cross-site POST, which a Lax cookie does not follow, so SameSite=None (which browsers take only Secure;
 * http://localhost counts as secure).
 */
async function startIn(request: FastifyRequest, reply: FastifyReply, sso: SsoSignIn, input: SsoStart, cookie: SsoCookie): Promise<string> {
  const secret = browserSecretOr(presentedSecret(request));
  const { url, protocol } = await sso.start(input, secret);
  const attributes = [`${FLOW_COOKIE}=${secret}`, `Path=${cookie.path}`, `Max-Age=${SSO_FLOW_TTL_SECONDS}`, 'HttpOnly'];
  if (protocol === 'saml') attributes.push('SameSite=None', 'Secure');
  else attributes.push('SameSite=Lax', ...(cookie.secure ? ['Secure'] : []));
  reply.header('set-cookie', attributes.join('; '));
  reply.header('cache-control', 'no-store');
  return url;
}

/** POST /auth/v1/sso: @supabase/auth-js's signInWithSSO (with the apikey). */
export function registerSsoStart(scope: FastifyInstance, sso: SsoSignIn, cookie: SsoCookie): void {
  scope.withTypeProvider<TypeBoxTypeProvider>().post('/sso', { schema: ssoStartSchema, config: { public: true } }, async (request, reply) => {
    const { skip_http_redirect: skip, code_challenge: challenge, ...input } = request.body;
    if (challenge !== undefined && challenge !== null && challenge !== '') {
      throw invalidRequest("code_challenge: single sign-on answers the session in redirect_to's fragment (auth-js flowType 'implicit'); the PKCE flow is not supported");
    }
    const url = await startIn(request, reply, sso, input, cookie);
    return skip === true ? { url } : reply.redirect(url, 303);
  });
}

/** GET /auth/v1/sso (the sign-in screen's link, "test this connection") and the provider's callback: no apikey. */
export function registerSsoBrowserRoutes(scope: FastifyInstance, sso: SsoSignIn, devices: Pick<SignInDevices, 'rememberDevice'>, options: { publicUrl: string; cookie: SsoCookie }): void {
  const typed = scope.withTypeProvider<TypeBoxTypeProvider>();

  typed.get('/sso', { schema: ssoRedirectSchema, config: { public: true } }, async (request, reply) =>
    reply.redirect(await startIn(request, reply, sso, request.query, options.cookie), 303),
  );

  typed.get('/sso/callback', { schema: ssoCallbackSchema, config: { public: true } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    reply.header('referrer-policy', 'no-referrer');
    // The URL the provider redirected to, as openid-client compares it with the redirect URI it sent.
    const callbackUrl = new URL(request.url, options.publicUrl);
    return returnTo(request, reply, devices, await sso.finish(callbackUrl, presentedSecret(request), originOf(request)));
  });
}

/** The end of a sign-in at the provider: 303 to the sign-in's redirect, the session (or the refusal) in its fragment. */
export function returnTo(
  request: FastifyRequest,
  reply: FastifyReply,
  devices: Pick<SignInDevices, 'rememberDevice'>,
  { redirect, outcome }: { redirect: string; outcome: TokenResponseView | ProviderError },
) {
  if ('access_token' in outcome) devices.rememberDevice(request, reply, outcome.user.id);
  return reply.redirect(`${redirect.split('#')[0]}#${sessionFragment(outcome, { type: 'sso' })}`, 303);
}
