import * as oidc from 'openid-client';
import { createGuardedFetch } from '../../../platform/net/guarded-fetch.js';
import { RefusedAddress, type Resolve } from '../../../platform/net/guarded-lookup.js';

/**
 * The relying party's side of OpenID Connect, through openid-client: discovery of a connection's provider,
 * the authorization request (code flow, PKCE S256, state and nonce) and the callback's checks (state, the
 * code's exchange with the verifier, and the id_token's signature, issuer, audience, expiry and nonce).
 */

export interface OidcClientSettings {
  /** SSO_ALLOW_INSECURE_ISSUERS: http:// issuers, and issuers on loopback addresses, accepted (development and tests). */
  allowInsecureIssuers: boolean;
  /** The resolver the guarded fetch checks (the system's; the suites inject one). */
  resolve?: Resolve;
}

export interface OidcConnection {
  id: string;
  row_version: number;
  issuer: string | null;
  client_id: string | null;
  client_secret: string | null;
  scopes: string[];
}

/** What the provider says of the person, from the validated id_token. */
export interface ProviderIdentity {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
}

/** The sign-in's secrets, kept between the redirect and the callback. */
export interface FlowChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** Why the provider's side failed: discovery, the exchange, or a check of the id_token. */
export class OidcFailure extends Error {
  override readonly name = 'OidcFailure';
}

/** Why a request failed: an address refused (somewhere in openid-client's chain of causes), else its message. */
function reasonOf(error: unknown): string {
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) if (cause instanceof RefusedAddress) return cause.message;
  return (error as Error).message;
}

const DISCOVERY_TTL_MS = 10 * 60_000;
const TIMEOUT_SECONDS = 10;

/** The scopes asked: the connection's, with `openid` and `email` always among them. */
export const requestedScopes = (scopes: readonly string[]): string => [...new Set(['openid', 'email', ...scopes])].join(' ');

export function createOidcClients(settings: OidcClientSettings) {
  const cache = new Map<string, { at: number; config: oidc.Configuration }>();
  // An issuer is a URL a client admin gives: discovery, the keys and the token endpoint are fetched with the
  // addresses checked at connect time, as a webhook's are (platform/net), so it cannot point inside.
  const guardedFetch = createGuardedFetch({ allowLoopback: settings.allowInsecureIssuers, ...(settings.resolve ? { resolve: settings.resolve } : {}) });

  function issuerUrl(issuer: string): URL {
    let url: URL;
    try {
      url = new URL(issuer);
    } catch {
      throw new OidcFailure('The issuer is not a URL');
    }
    if (url.protocol === 'https:' || (settings.allowInsecureIssuers && url.protocol === 'http:')) return url;
    throw new OidcFailure('The issuer must be an https URL');
  }

  /** The provider's metadata with the client's credentials (discovered, then kept for ten minutes per version). */
  async function configure(connection: OidcConnection, fresh = false): Promise<oidc.Configuration> {
    const key = `${connection.id}:${connection.row_version}`;
    const kept = cache.get(key);
    if (!fresh && kept !== undefined && Date.now() - kept.at < DISCOVERY_TTL_MS) return kept.config;
    const config = await discover(connection.issuer ?? '', connection.client_id ?? '', connection.client_secret ?? '');
    cache.set(key, { at: Date.now(), config });
    return config;
  }

  /** Discovery at {issuer}/.well-known/openid-configuration; the metadata's issuer must be the one given. */
  async function discover(issuer: string, clientId: string, clientSecret: string): Promise<oidc.Configuration> {
    const url = issuerUrl(issuer);
    try {
      return await oidc.discovery(url, clientId, undefined, oidc.ClientSecretBasic(clientSecret), {
        timeout: TIMEOUT_SECONDS,
        [oidc.customFetch]: (url, { method, headers, body, signal }) => {
          // openid-client sends forms and nothing streamed; a stream would have no guarded way out.
          if (body instanceof ReadableStream) throw new OidcFailure('A streamed request body is not sent');
          return guardedFetch(url, { method, headers, body: body ?? null, ...(signal ? { signal } : {}) });
        },
        // The id_token's signature is checked against the provider's published keys even though it comes
        // straight from the token endpoint (OIDC Core 3.1.3.7 would let TLS stand in for it).
        execute: settings.allowInsecureIssuers ? [oidc.allowInsecureRequests, oidc.enableNonRepudiationChecks] : [oidc.enableNonRepudiationChecks],
      });
    } catch (error) {
      throw new OidcFailure(`Discovery of ${url.href} failed: ${reasonOf(error)}`);
    }
  }

  /** The URL to send the browser to, and the checks its callback must meet. */
  async function authorizationRequest(connection: OidcConnection, redirectUri: string, loginHint: string | null): Promise<{ url: string; checks: FlowChecks }> {
    const config = await configure(connection);
    const checks: FlowChecks = { state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier() };
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: requestedScopes(connection.scopes),
      response_type: 'code',
      code_challenge: await oidc.calculatePKCECodeChallenge(checks.codeVerifier),
      code_challenge_method: 'S256',
      state: checks.state,
      nonce: checks.nonce,
      ...(loginHint === null ? {} : { login_hint: loginHint }),
    });
    return { url: url.href, checks };
  }

  /** The callback's URL as the provider sent it: every check, then the identity its id_token states. */
  async function complete(connection: OidcConnection, callbackUrl: URL, checks: FlowChecks): Promise<ProviderIdentity> {
    const config = await configure(connection);
    let claims: oidc.IDToken | undefined;
    try {
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        pkceCodeVerifier: checks.codeVerifier,
        idTokenExpected: true,
      });
      claims = tokens.claims();
    } catch (error) {
      throw new OidcFailure(reasonOf(error));
    }
    if (claims === undefined) throw new OidcFailure('The provider answered no id_token');
    const email = typeof claims['email'] === 'string' ? claims['email'] : null;
    // Entra ID states a verified address with its optional claim `xms_edov` (the domain's owner verified it).
    const emailVerified = claims['email_verified'] === true || claims['xms_edov'] === true;
    const name = typeof claims['name'] === 'string' && claims['name'].trim() !== '' ? claims['name'].trim() : null;
    return { subject: claims.sub, email, emailVerified, name };
  }

  return { discover, authorizationRequest, complete };
}

export type OidcClients = ReturnType<typeof createOidcClients>;
