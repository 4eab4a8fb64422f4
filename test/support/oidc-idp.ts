import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, decodeJwt, exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';
import type { TestContext } from './app.js';

/**
 * A real OpenID provider in the test process: panva's oidc-provider on a random loopback port, with one
 * confidential client (PKCE required) whose redirect URI is the service's SSO callback. Its login and consent
 * are completed by a small interaction handler: the next login is the account the test names
 * (`idp.signInAs`). `idp.tamper` turns it into a misbehaving provider: the id_token of the token response is
 * re-signed with claims changed (another issuer, audience or nonce) or with a key it does not publish.
 */
export interface AccountClaims {
  email?: string;
  email_verified?: boolean;
  name?: string;
}

export interface TestIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  signInAs(accountId: string, claims: AccountClaims): void;
  tamper: { claims?: (claims: Record<string, unknown>) => Record<string, unknown>; foreignKey?: boolean } | null;
  close(): Promise<void>;
}

export async function startTestIdp(redirectUri: string): Promise<TestIdp> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const foreign = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(privateKey)), kid: 'idp-key', alg: 'RS256', use: 'sig' };
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const accounts = new Map<string, AccountClaims>();
  let next: string | null = null;
  const clientId = 'risk-assurance';
  const clientSecret = 'a client secret of the test provider, long enough';

  const provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri], response_types: ['code'], grant_types: ['authorization_code'] }],
    jwks: { keys: [jwk] },
    cookies: { keys: ['cookie signing key of the test provider'] },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // The claims in the id_token itself, as Entra ID and Okta put them there.
    conformIdTokenClaims: false,
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub, ...accounts.get(sub) }) }),
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  });

  const idp: TestIdp = {
    issuer,
    clientId,
    clientSecret,
    signInAs(accountId, claims) {
      accounts.set(accountId, claims);
      next = accountId;
    },
    tamper: null,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  provider.use(async (ctx, nextMiddleware) => {
    if (ctx.path.startsWith('/interaction/')) {
      // The person signs in as the account the test named, and consents to what the client asks.
      const details = await provider.interactionDetails(ctx.req, ctx.res);
      const accountId = next ?? 'nobody';
      const grant = new provider.Grant({ accountId, clientId: String(details.params['client_id']) });
      grant.addOIDCScope(String(details.params['scope']));
      const result = { login: { accountId }, consent: { grantId: await grant.save() } };
      ctx.redirect(await provider.interactionResult(ctx.req, ctx.res, result, { mergeWithLastSubmission: false }));
      return;
    }
    await nextMiddleware();
    const body = ctx.body as { id_token?: string } | undefined;
    if (ctx.path === '/token' && idp.tamper !== null && typeof body?.id_token === 'string') {
      const claims = idp.tamper.claims?.({ ...decodeJwt(body.id_token) }) ?? decodeJwt(body.id_token);
      const key = idp.tamper.foreignKey === true ? foreign.privateKey : privateKey;
      ctx.body = { ...body, id_token: await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'idp-key' }).sign(key) };
    }
  });
  server.on('request', provider.callback());
  return idp;
}

/**
 * A browser with a cookie jar per host: the service (through inject, at PUBLIC_URL) and the provider (over
 * HTTP). `follow` walks the redirects until `stop` says so (by default: the URL that carries a fragment, where
 * the console would take over).
 */
export function testBrowser(ctx: TestContext) {
  const jars = new Map<string, Map<string, string>>();
  const service = new URL(ctx.config.publicUrl);
  const jarOf = (url: URL) => {
    let jar = jars.get(url.host);
    if (jar === undefined) jars.set(url.host, (jar = new Map()));
    return jar;
  };
  const keep = (url: URL, cookies: readonly string[]) => {
    const jar = jarOf(url);
    for (const cookie of cookies) {
      const [pair = ''] = cookie.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(cookie) || /max-age=0/i.test(cookie)) jar.delete(name);
      else jar.set(name, value);
    }
  };
  const cookieHeader = (url: URL) => [...jarOf(url)].map(([name, value]) => `${name}=${value}`).join('; ');

  /** One request, no redirect followed. */
  async function get(href: string): Promise<{ status: number; location: URL | null; body: string }> {
    const url = new URL(href);
    if (url.origin === service.origin) {
      const response = await ctx.app.inject({ method: 'GET', url: `${url.pathname}${url.search}`, headers: { cookie: cookieHeader(url) } });
      const set = response.headers['set-cookie'];
      keep(url, set === undefined ? [] : Array.isArray(set) ? set : [set]);
      const location = response.headers.location;
      return { status: response.statusCode, location: typeof location === 'string' ? new URL(location, url) : null, body: response.body };
    }
    const response = await fetch(url, { redirect: 'manual', headers: { cookie: cookieHeader(url) } });
    keep(url, response.headers.getSetCookie());
    const location = response.headers.get('location');
    return { status: response.status, location: location === null ? null : new URL(location, url), body: await response.text() };
  }

  async function follow(href: string, stop: (url: URL) => boolean = (url) => url.hash !== ''): Promise<URL> {
    let url = new URL(href);
    for (let hop = 0; hop < 20; hop += 1) {
      const answer = await get(url.href);
      if (answer.location === null) throw new Error(`${url.href} answered ${answer.status} without a redirect: ${answer.body.slice(0, 300)}`);
      url = answer.location;
      if (stop(url)) return url;
    }
    throw new Error('too many redirects');
  }

  return { get, follow, cookieHeader };
}

/** The fields of a redirect's fragment. */
export const fragmentOf = (url: URL): Record<string, string> => Object.fromEntries(new URLSearchParams(url.hash.slice(1)));
