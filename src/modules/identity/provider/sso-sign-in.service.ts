import { createHash, randomBytes } from 'node:crypto';
import type { RequestOrigin } from '../../../platform/auth/principal.js';
import type { PrincipalResolver } from '../../../platform/auth/principal-resolver.js';
import { inTransaction } from '../../../platform/db/transaction.js';
import type { Monitor } from '../../../platform/monitoring/monitor.js';
import { createMembersProvisioning } from '../../admin/members-provisioning.service.js';
import { emailDomain } from '../sso/email-domain.js';
import { OidcFailure, type OidcClients, type ProviderIdentity } from '../sso/oidc-client.js';
import { SamlFailure, type SamlClients } from '../sso/saml-client.js';
import { SSO_CALLBACK_PATH } from '../sso/sso-settings.service.js';
import { connectionForSignIn, enterpriseOfVerifiedDomain, insertFlow, takeFlow } from '../sso/sso.repository.js';
import { ProviderError, invalidRequest } from './provider.errors.js';
import type { TokenResponseView } from './provider.presenter.js';
import * as repo from './provider.repository.js';
import type { createTokenGrants, TokenGrantsDeps } from './token-grants.service.js';

/** How long a sign-in may take at the provider, from the redirect to the callback. */
export const SSO_FLOW_TTL_SECONDS = 600;

export interface SsoSignInDeps extends Pick<TokenGrantsDeps, 'db'> {
  publicUrl: string;
  oidc: OidcClients;
  saml: SamlClients;
  principals: Pick<PrincipalResolver, 'invalidateUser'>;
  monitor: Pick<Monitor, 'authFailure'>;
  wakeMail: () => void;
}

/** Where a sign-in starts: a verified domain (or an e-mail of one), or a connection's id (auth-js's providerId). */
export interface SsoStart {
  domain?: string | undefined;
  email?: string | undefined;
  provider_id?: string | undefined;
  redirect_to?: string | undefined;
}

/** A refusal after the provider answered: sent to the sign-in's redirect URL in the fragment, as GoTrue does. */
const refusal = (errorCode: string, why: string) => new ProviderError(403, 'access_denied', why, errorCode);
const notFoundProvider = () => new ProviderError(404, 'sso_provider_not_found', 'No SSO provider is set up for this domain', 'sso_provider_not_found');
const badState = (why: string) => new ProviderError(400, 'invalid_request', why, 'bad_oauth_state');

const hashOf = (value: string) => createHash('sha256').update(value).digest('base64url');

/** A browser's secret for its sign-ins: the one its cookie holds, or a new one. */
export const browserSecretOr = (presented: string | null): string => (presented !== null && /^[A-Za-z0-9_-]{43}$/.test(presented) ? presented : randomBytes(32).toString('base64url'));

/** Where a sign-in goes: the provider's URL; a SAML one comes back by a cross-site POST (its cookie must allow that). */
export interface SsoRedirect {
  url: string;
  protocol: 'oidc' | 'saml';
}

/** The protocol's leg of the return: the flow's checks met, the identity the provider states (or its failure). */
type ProtocolCheck = (connection: Connection, flow: Flow) => Promise<ProviderIdentity>;
type Connection = NonNullable<Awaited<ReturnType<typeof connectionForSignIn>>>;
type Flow = NonNullable<Awaited<ReturnType<typeof takeFlow>>>;

/**
 * Single sign-on through an enterprise's connection, OIDC or SAML 2.0 (decisions.md, "Single sign-on"): the
 * redirect to its provider, and the return (OIDC's callback, SAML's ACS) that ends in the provider's usual
 * session, started as a password sign-in starts one (token-grants.service.ts) and audited as `login` with the
 * connection named. The protocols differ only in their leg of the return (oidc-client.ts, saml-client.ts).
 */
export function createSsoSignIn(
  deps: SsoSignInDeps,
  grants: Pick<ReturnType<typeof createTokenGrants>, 'startSession' | 'tokensFor' | 'recordRefusal'>,
  redirectFor: (requested: string | undefined) => string,
) {
  const { db, oidc, saml } = deps;
  const redirectUri = `${deps.publicUrl}${SSO_CALLBACK_PATH}`;

  async function connectionOf(input: SsoStart) {
    if (input.provider_id !== undefined) {
      if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(input.provider_id)) throw notFoundProvider();
      return connectionForSignIn(db, null, input.provider_id);
    }
    const domain = input.domain?.trim().toLowerCase() ?? emailDomain(input.email ?? '');
    if (domain === '') throw invalidRequest('domain, email or provider_id is required');
    const enterpriseId = await enterpriseOfVerifiedDomain(db, domain);
    return enterpriseId === undefined ? undefined : connectionForSignIn(db, enterpriseId, null);
  }

  /** The provider's URL for this sign-in (OIDC's authorization request, SAML's AuthnRequest), and what the return must meet. */
  async function requestOf(connection: Connection, hint: string | null): Promise<{ url: string; state: string; nonce: string; codeVerifier: string | null }> {
    try {
      if (connection.type === 'saml') {
        // The relay state names the flow as OIDC's state does; the request's ID is what InResponseTo must name.
        const [state, requestId] = [randomBytes(32).toString('base64url'), `_${randomBytes(20).toString('hex')}`];
        const url = await saml.authorizationRequest(connection, state, { id: requestId, issuedAt: new Date() });
        return { url, state, nonce: requestId, codeVerifier: null };
      }
      const { url, checks } = await oidc.authorizationRequest(connection, redirectUri, hint);
      return { url, state: checks.state, nonce: checks.nonce, codeVerifier: checks.codeVerifier };
    } catch (error) {
      if (!(error instanceof OidcFailure || error instanceof SamlFailure)) throw error;
      throw new ProviderError(502, 'sso_provider_unavailable', `The identity provider could not be reached: ${error.message}`, 'sso_provider_unavailable');
    }
  }

  /** The provider's URL; the sign-in's checks are kept, bound to the browser's secret. */
  async function start(input: SsoStart, browserSecret: string): Promise<SsoRedirect> {
    const redirect = redirectFor(input.redirect_to);
    const connection = await connectionOf(input);
    if (connection === undefined) throw notFoundProvider();
    const hint = input.email !== undefined && input.email.includes('@') ? input.email.trim() : null;
    const request = await requestOf(connection, hint);
    await inTransaction(db, ({ trx }) =>
      insertFlow(trx, {
        state_hash: hashOf(request.state),
        enterprise_id: connection.enterprise_id,
        connection_id: connection.id,
        browser_hash: hashOf(browserSecret),
        nonce: request.nonce,
        code_verifier: request.codeVerifier,
        redirect_to: redirect,
        expires_at: new Date(Date.now() + SSO_FLOW_TTL_SECONDS * 1000),
      }),
    );
    return { url: request.url, protocol: connection.type };
  }

  /** OIDC's callback, as the provider sent the browser to it. */
  async function finish(callbackUrl: URL, browserSecret: string | null, origin: RequestOrigin) {
    const state = callbackUrl.searchParams.get('state');
    return finishFlow(state, browserSecret, origin, 'oidc', async (connection, flow) => {
      const providerError = callbackUrl.searchParams.get('error');
      if (providerError !== null) throw refusal('bad_oauth_callback', `The identity provider refused: ${callbackUrl.searchParams.get('error_description') ?? providerError}`);
      try {
        return await oidc.complete(connection, callbackUrl, { state: state ?? '', nonce: flow.nonce, codeVerifier: flow.code_verifier ?? '' });
      } catch (error) {
        if (!(error instanceof OidcFailure)) throw error;
        deps.monitor.authFailure({ account: null, enterpriseId: connection.enterprise_id, ip: origin.ip });
        throw refusal('bad_oauth_callback', `The identity provider's answer was refused: ${error.message}`);
      }
    });
  }

  /**
   * SAML's ACS, the IdP's form as the browser POSTed it. Its RelayState names the sign-in, as OIDC's state does:
   * a response that names none (IdP-initiated, unsolicited) is refused as an unknown state.
   */
  async function finishSaml(form: { SAMLResponse: string; RelayState?: string | undefined }, browserSecret: string | null, origin: RequestOrigin) {
    return finishFlow(form.RelayState ?? null, browserSecret, origin, 'saml', async (connection, flow) => {
      try {
        return await saml.complete(connection, form.SAMLResponse, { id: flow.nonce, issuedAt: flow.created_at });
      } catch (error) {
        if (!(error instanceof SamlFailure)) throw error;
        deps.monitor.authFailure({ account: null, enterpriseId: connection.enterprise_id, ip: origin.ip });
        throw refusal('bad_saml_response', `The identity provider's answer was refused: ${error.message}`);
      }
    });
  }

  /**
   * The return from the provider. A state that names no sign-in under way, an expired one, one already used or
   * started in another browser: 400, answered here (there is nowhere safe to send the browser). Anything refused
   * after that goes to the sign-in's redirect URL as an error; a success, as the session.
   */
  async function finishFlow(
    state: string | null,
    browserSecret: string | null,
    origin: RequestOrigin,
    protocol: 'oidc' | 'saml',
    check: ProtocolCheck,
  ): Promise<{ redirect: string; outcome: TokenResponseView | ProviderError }> {
    if (state === null || state === '') throw badState('state is missing');
    // Taken at once, whatever follows: a state (and the code or response with it) serves one return.
    const flow = await takeFlow(db, hashOf(state));
    if (flow === undefined || flow.expires_at.getTime() <= Date.now()) throw badState('This sign-in is unknown, used or expired: start it again');
    if (browserSecret === null || hashOf(browserSecret) !== flow.browser_hash) throw badState('This sign-in was started in another browser: start it again');
    try {
      const connection = await connectionForSignIn(db, flow.enterprise_id, flow.connection_id);
      if (connection === undefined) throw refusal('sso_provider_not_found', 'The SSO connection was removed');
      if (connection.type !== protocol) throw refusal('sso_provider_not_found', `This sign-in went through a ${connection.type.toUpperCase()} connection`);
      const identity = await check(connection, flow);
      if (identity.email === null || !identity.emailVerified) throw refusal('email_not_confirmed', 'The identity provider stated no verified e-mail address');
      if ((await enterpriseOfVerifiedDomain(db, emailDomain(identity.email))) !== connection.enterprise_id) {
        throw refusal('sso_domain_not_verified', "The e-mail's domain is not a verified domain of this organisation");
      }
      return { redirect: flow.redirect_to, outcome: await signIn(connection, identity as ProviderIdentity & { email: string }, origin) };
    } catch (error) {
      if (error instanceof ProviderError) return { redirect: flow.redirect_to, outcome: error };
      throw error;
    }
  }

  /**
   * The person the provider vouches for, by e-mail: an active member of the connection's enterprise; or,
   * with just-in-time membership on, a person the service has no account for, who becomes one with its role.
   * A member of another enterprise, a super admin, a deactivated account: refused, and audited on the account.
   */
  async function signIn(connection: Connection, identity: ProviderIdentity & { email: string }, origin: RequestOrigin): Promise<TokenResponseView> {
    const named = { method: 'sso', connection_id: connection.id, connection: connection.name, subject: identity.subject };
    const known = await repo.findAccountByEmail(db, identity.email);
    const outcome = await inTransaction(db, async ({ trx }) => {
      let account = known === undefined ? undefined : await repo.lockAccount(trx, known.id);
      const refuse = async (errorCode: string, why: string, reason: string) => {
        if (account !== undefined) await grants.recordRefusal(trx, account, origin, { ...named, reason });
        return { refused: refusal(errorCode, why) };
      };
      if (account === undefined) {
        if (connection.jit_role === null) return refuse('signup_disabled', 'You have no account here: ask your administrator to add you', 'no_account');
        const provisioning = createMembersProvisioning(
          trx,
          { details: { actor: 'sso', connection_id: connection.id, connection: connection.name }, ip: origin.ip, userAgent: origin.userAgent, operation: origin.operation },
          { principals: deps.principals, mail: { wake: deps.wakeMail } },
        );
        const { user } = await provisioning.addMember(connection.enterprise_id, { email: identity.email, full_name: identity.name ?? identity.email, role: connection.jit_role });
        account = (await repo.findAccountById(trx, user.id)) as repo.AccountRow;
      }
      if (!account.active) return refuse('user_banned', 'Your account is deactivated', 'user_inactive');
      if (account.is_super_admin || account.trail_enterprise_id !== connection.enterprise_id) {
        return refuse('sso_user_not_member', 'Your account does not belong to this organisation', account.is_super_admin ? 'super_admin' : 'not_member');
      }
      return { started: await grants.startSession(trx, account, origin, new Date(), named) };
    });
    if ('refused' in outcome) {
      deps.monitor.authFailure({ account: identity.email.toLowerCase(), enterpriseId: connection.enterprise_id, ip: origin.ip, signIn: true });
      throw outcome.refused;
    }
    return grants.tokensFor(outcome.started);
  }

  return { start, finish, finishSaml };
}

export type SsoSignIn = ReturnType<typeof createSsoSignIn>;
