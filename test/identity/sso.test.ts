import { AuthClient } from '@supabase/auth-js';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { auditEntries } from '../support/audit.js';
import { calls } from '../support/cast.js';
import { createEnterprise, createUser } from '../support/factories.js';
import { fragmentOf, startTestIdp, testBrowser } from '../support/oidc-idp.js';
import { providerCalls } from '../support/provider.js';

/**
 * Single sign-on per enterprise through OIDC, end to end over HTTP against a real provider (oidc-provider in
 * the test process): the authorization code flow with PKCE, state and nonce, each check the callback makes,
 * membership and just-in-time membership, the session that results (as a password sign-in's), and enforced SSO.
 */
describe('single sign-on (OIDC) per enterprise', async () => {
  const ctx = await createTestContext({ env: { SSO_ALLOW_INSECURE_ISSUERS: 'true' } });
  const idp = await startTestIdp(`${ctx.config.publicUrl}/auth/v1/sso/callback`);
  afterAll(() => idp.close());
  const { call } = calls(ctx);
  const { passwordGrant, refreshGrant, me, anon } = providerCalls(ctx);

  const enterprise = await createEnterprise(ctx);
  const admin = await createUser(ctx, { role: 'admin', enterpriseId: enterprise.id });
  const other = await createEnterprise(ctx);
  const otherAdmin = await createUser(ctx, { role: 'admin', enterpriseId: other.id });
  const superAdmin = await createUser(ctx, { role: 'super_admin', email: 'platform@corp.test' });
  const member = await createUser(ctx, { role: 'assessor', enterpriseId: enterprise.id, email: 'ada@corp.test' });
  const foreigner = await createUser(ctx, { role: 'assessor', enterpriseId: other.id, email: 'eve@corp.test' });
  const contractor = await createUser(ctx, { role: 'reviewer', enterpriseId: enterprise.id, email: 'carl@agency.test' });

  let connectionId = '';
  let domainId = '';
  const connectionUrl = () => `/sso/connections/${connectionId}`;

  /** A sign-in as a person of the provider, from the service's /auth/v1/sso to the console's redirect. */
  async function signInAs(accountId: string, claims: { email?: string; email_verified?: boolean; name?: string }) {
    idp.signInAs(accountId, claims);
    return fragmentOf(await testBrowser(ctx).follow(`${ctx.config.publicUrl}/auth/v1/sso?domain=corp.test`));
  }

  /** Up to the callback, not sent: the browser, and the callback URL the provider sent it to. */
  async function atCallback(accountId: string, email: string) {
    idp.signInAs(accountId, { email, email_verified: true });
    const browser = testBrowser(ctx);
    const callback = await browser.follow(`${ctx.config.publicUrl}/auth/v1/sso?domain=corp.test`, (url) => url.pathname === '/auth/v1/sso/callback');
    return { browser, callback };
  }

  const patchConnection = async (body: unknown) => {
    const read = await call(admin, 'GET', connectionUrl());
    const changed = await call(admin, 'PATCH', connectionUrl(), body, { 'if-match': read.headers.etag as string });
    expect(changed.statusCode, changed.body).toBe(200);
    return changed.json().data;
  };

  beforeAll(async () => {
    const created = await call(admin, 'POST', '/sso/connections', { name: 'Corp IdP', issuer: idp.issuer, client_id: idp.clientId, client_secret: idp.clientSecret });
    expect(created.statusCode, created.body).toBe(201);
    connectionId = created.json().data.id;
    const domain = await call(admin, 'POST', '/sso/domains', { domain: 'Corp.test' });
    expect(domain.statusCode, domain.body).toBe(201);
    domainId = domain.json().data.id;
  });

  it('a client admin configures a connection (discovered; the secret never answered back) and claims a domain with its TXT record', async () => {
    const read = await call(admin, 'GET', connectionUrl());
    expect(read.statusCode).toBe(200);
    expect(read.json().data).toMatchObject({
      type: 'oidc',
      issuer: idp.issuer,
      client_id: idp.clientId,
      client_secret_set: true,
      enforce_sso: false,
      jit_role: null,
      redirect_uri: `${ctx.config.publicUrl}/auth/v1/sso/callback`,
    });
    expect(read.body).not.toContain(idp.clientSecret);
    expect((await call(admin, 'GET', '/sso/connections')).json().data.map((c: { id: string }) => c.id)).toEqual([connectionId]);
    const [entry] = await auditEntries(ctx, { entityId: connectionId, action: 'create' });
    expect(entry).toMatchObject({ entity_type: 'sso_connection', user_id: admin.id, enterprise_id: enterprise.id });
    expect(JSON.stringify(entry!.action_details)).not.toContain(idp.clientSecret);

    const domains = (await call(admin, 'GET', '/sso/domains')).json().data;
    expect(domains).toHaveLength(1);
    expect(domains[0]).toMatchObject({ domain: 'corp.test', verified: false, verification: { record_name: '_risk-assurance-challenge.corp.test' } });
    expect(domains[0].verification.record_value).toMatch(/^risk-assurance-domain-verification=/);

    // An issuer that cannot be discovered is refused before anything is kept.
    const unreachable = await call(admin, 'POST', '/sso/connections', { name: 'Nowhere', issuer: 'http://127.0.0.1:9/', client_id: 'x', client_secret: 'y' });
    expect(unreachable.statusCode).toBe(422);
    expect(unreachable.json().details.fields[0].field).toBe('issuer');

    // An issuer inside the service's network (the cloud's metadata endpoint, a private address) is refused
    // before any request reaches it (SSRF), even where http issuers are allowed.
    for (const inside of ['http://169.254.169.254/', 'https://10.0.0.8/', 'http://[::ffff:192.168.1.1]/']) {
      const refused = await call(admin, 'POST', '/sso/connections', { name: 'Inside', issuer: inside, client_id: 'x', client_secret: 'y' });
      expect(refused.statusCode, inside).toBe(422);
      expect(refused.json().details.fields[0]).toMatchObject({ field: 'issuer', message: expect.stringMatching(/private, link-local or reserved/) });
    }
  });

  it('an unverified domain routes nobody; its TXT record missing, the client admin cannot verify it; a super admin attests it', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/auth/v1/sso?domain=corp.test' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error_code: 'sso_provider_not_found' });
    const notProven = await call(admin, 'POST', `/sso/domains/${domainId}/verify`);
    expect(notProven.statusCode).toBe(422);
    // The super admin sees the enterprise's claims (the Enterprises screen's list), an enterprise's admin does not.
    const claims = await call(superAdmin, 'GET', `/admin/enterprises/${enterprise.id}/sso/domains`);
    expect(claims.statusCode, claims.body).toBe(200);
    expect(claims.json().data).toMatchObject([{ id: domainId, domain: 'corp.test', verified: false }]);
    expect(claims.json().pagination).toMatchObject({ total: 1 });
    expect((await call(superAdmin, 'GET', `/admin/enterprises/${other.id}/sso/domains`)).json().data).toEqual([]);
    expect((await call(superAdmin, 'GET', '/admin/enterprises/00000000-0000-4000-8000-000000000000/sso/domains')).statusCode).toBe(404);
    expect((await call(admin, 'GET', `/admin/enterprises/${enterprise.id}/sso/domains`)).statusCode).toBe(403);
    // The attestation is the platform's: an enterprise's admin cannot make it.
    expect((await call(admin, 'POST', `/admin/sso/domains/${domainId}/verify`)).statusCode).toBe(403);
    const attested = await call(superAdmin, 'POST', `/admin/sso/domains/${domainId}/verify`);
    expect(attested.statusCode, attested.body).toBe(200);
    expect(attested.json().data).toMatchObject({ verified: true, verification: null });
    const [entry] = await auditEntries(ctx, { entityId: domainId, action: 'update' });
    expect(entry).toMatchObject({ entity_type: 'sso_domain', user_id: superAdmin.id, enterprise_id: enterprise.id });
    expect(entry!.action_details).toMatchObject({ change: 'verified', method: 'super_admin' });
    expect((await call(superAdmin, 'GET', `/admin/enterprises/${enterprise.id}/sso/domains`)).json().data).toMatchObject([{ id: domainId, verified: true, verification: null }]);
  });

  it('a member signs in through the provider: the usual session (API, refresh, logout), audited as login naming the connection', async () => {
    const session = await signInAs('ada-at-idp', { email: 'Ada@corp.test', email_verified: true, name: 'Ada' });
    expect(session).toMatchObject({ token_type: 'bearer', expires_in: '3600' });
    expect(session['access_token']).toBeDefined();
    const profile = await me(session['access_token']!);
    expect(profile.statusCode).toBe(200);
    expect(profile.json().data).toMatchObject({ user_id: member.id, role: 'assessor', enterprise_id: enterprise.id });

    const refreshed = await refreshGrant(session['refresh_token']);
    expect(refreshed.statusCode).toBe(200);
    const next = refreshed.json();
    expect((await me(next.access_token)).statusCode).toBe(200);
    const out = await ctx.app.inject({ method: 'POST', url: '/auth/v1/logout?scope=local', headers: { ...anon, authorization: `Bearer ${next.access_token}` } });
    expect(out.statusCode).toBe(204);
    expect((await me(next.access_token)).statusCode).toBe(401);
    expect((await refreshGrant(next.refresh_token)).statusCode).toBe(400);

    const logins = await auditEntries(ctx, { userId: member.id, action: 'login' });
    expect(logins.at(-1)).toMatchObject({ status: 'success', enterprise_id: enterprise.id });
    expect(logins.at(-1)!.action_details).toMatchObject({ method: 'sso', connection_id: connectionId, connection: 'Corp IdP', subject: 'ada-at-idp' });
  });

  it('a state the service did not issue, or one already used (the code replayed), is 400 bad_oauth_state', async () => {
    const { browser, callback } = await atCallback('ada-at-idp', 'ada@corp.test');
    const forged = new URL(callback);
    forged.searchParams.set('state', 'a-state-nobody-issued');
    const refused = await browser.get(forged.href);
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body)).toMatchObject({ error_code: 'bad_oauth_state' });
    // The genuine callback still works once; the same code and state again do not.
    const first = await browser.get(callback.href);
    expect(fragmentOf(first.location!)['access_token']).toBeDefined();
    const replay = await browser.get(callback.href);
    expect(replay.status).toBe(400);
    expect(JSON.parse(replay.body)).toMatchObject({ error_code: 'bad_oauth_state' });
  });

  it("a callback in another browser than the one that started the sign-in is refused (its cookie binds the state)", async () => {
    const { callback } = await atCallback('ada-at-idp', 'ada@corp.test');
    const elsewhere = await testBrowser(ctx).get(callback.href);
    expect(elsewhere.status).toBe(400);
    expect(JSON.parse(elsewhere.body)).toMatchObject({ error_code: 'bad_oauth_state' });
  });

  it("another sign-in's code under this state fails PKCE at the provider: refused", async () => {
    const a = await atCallback('ada-at-idp', 'ada@corp.test');
    const b = await atCallback('ada-at-idp', 'ada@corp.test');
    const swapped = new URL(b.callback);
    swapped.searchParams.set('code', a.callback.searchParams.get('code')!);
    const refused = await b.browser.get(swapped.href);
    expect(fragmentOf(refused.location!)).toMatchObject({ error: 'access_denied', error_code: 'bad_oauth_callback' });
  });

  for (const [what, tamper] of [
    ['a wrong nonce', { claims: (claims: Record<string, unknown>) => ({ ...claims, nonce: 'not-the-nonce' }) }],
    ['another issuer', { claims: (claims: Record<string, unknown>) => ({ ...claims, iss: 'https://another-issuer.test' }) }],
    ['another audience', { claims: (claims: Record<string, unknown>) => ({ ...claims, aud: 'another-client' }) }],
    ['a key the provider does not publish', { foreignKey: true }],
  ] as const) {
    it(`an id_token with ${what} is refused, and no session starts`, async () => {
      const before = (await auditEntries(ctx, { userId: member.id, action: 'login' })).length;
      idp.tamper = tamper;
      try {
        const outcome = await signInAs('ada-at-idp', { email: 'ada@corp.test', email_verified: true });
        expect(outcome).toMatchObject({ error: 'access_denied', error_code: 'bad_oauth_callback' });
        expect(outcome['access_token']).toBeUndefined();
      } finally {
        idp.tamper = null;
      }
      expect(await auditEntries(ctx, { userId: member.id, action: 'login' })).toHaveLength(before);
    });
  }

  it('an e-mail outside the verified domains, or not verified by the provider, is refused', async () => {
    expect(await signInAs('carl-at-idp', { email: contractor.email, email_verified: true })).toMatchObject({ error_code: 'sso_domain_not_verified' });
    expect(await signInAs('ada-at-idp', { email: 'ada@corp.test', email_verified: false })).toMatchObject({ error_code: 'email_not_confirmed' });
    expect(await signInAs('ada-at-idp', { name: 'no e-mail' })).toMatchObject({ error_code: 'email_not_confirmed' });
  });

  it("a member of another enterprise is refused (audited in their trail), as is a super admin", async () => {
    expect(await signInAs('eve-at-idp', { email: foreigner.email, email_verified: true })).toMatchObject({ error: 'access_denied', error_code: 'sso_user_not_member' });
    const [refused] = await auditEntries(ctx, { userId: foreigner.id, action: 'login' });
    expect(refused).toMatchObject({ status: 'failed', enterprise_id: other.id });
    expect(refused!.action_details).toMatchObject({ method: 'sso', reason: 'not_member', connection_id: connectionId });
    expect(await signInAs('root-at-idp', { email: superAdmin.email, email_verified: true })).toMatchObject({ error_code: 'sso_user_not_member' });
  });

  it('just-in-time membership: off by default (a stranger is refused), on it makes a member with its role', async () => {
    expect(await signInAs('new-at-idp', { email: 'newcomer@corp.test', email_verified: true, name: 'New Comer' })).toMatchObject({ error_code: 'signup_disabled' });
    expect(await ctx.db.selectFrom('users').select('id').where('email', '=', 'newcomer@corp.test').execute()).toEqual([]);

    expect(await patchConnection({ jit_role: 'reviewer' })).toMatchObject({ jit_role: 'reviewer' });
    const session = await signInAs('new-at-idp', { email: 'newcomer@corp.test', email_verified: true, name: 'New Comer' });
    const profile = await me(session['access_token']!);
    expect(profile.statusCode).toBe(200);
    expect(profile.json().data).toMatchObject({ email: 'newcomer@corp.test', full_name: 'New Comer', role: 'reviewer', enterprise_id: enterprise.id });
    const [created] = await auditEntries(ctx, { entityId: profile.json().data.user_id, action: 'create' });
    expect(created).toMatchObject({ user_id: null, enterprise_id: enterprise.id });
    expect(created!.action_details).toMatchObject({ actor: 'sso', connection_id: connectionId, role: 'reviewer' });
    // JIT never takes in another enterprise's member.
    expect(await signInAs('eve-at-idp', { email: foreigner.email, email_verified: true })).toMatchObject({ error_code: 'sso_user_not_member' });
    await patchConnection({ jit_role: null });
  });

  it("enforced SSO refuses the password of the domain's members in the provider's error shape; super admins and other domains keep theirs", async () => {
    expect((await passwordGrant({ email: member.email, password: member.password })).statusCode).toBe(200);
    await patchConnection({ enforce_sso: true });
    const refused = await passwordGrant({ email: member.email, password: member.password });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ error: 'invalid_grant', error_code: 'user_sso_managed', error_description: expect.stringContaining("organisation's sign-in") });
    const entries = await auditEntries(ctx, { userId: member.id, action: 'login' });
    expect(entries.at(-1)).toMatchObject({ status: 'failed' });
    expect(entries.at(-1)!.action_details).toMatchObject({ method: 'password', reason: 'sso_required' });
    // A wrong password still says only that the credentials are wrong.
    expect((await passwordGrant({ email: member.email, password: 'not the password' })).json().error_code).toBe('invalid_credentials');
    expect((await passwordGrant({ email: superAdmin.email, password: superAdmin.password })).statusCode).toBe(200);
    expect((await passwordGrant({ email: contractor.email, password: contractor.password })).statusCode).toBe(200);
    // The provider's way still signs the member in.
    expect((await signInAs('ada-at-idp', { email: 'ada@corp.test', email_verified: true }))['access_token']).toBeDefined();
    await patchConnection({ enforce_sso: false });
    expect((await passwordGrant({ email: member.email, password: member.password })).statusCode).toBe(200);
  });

  it("@supabase/auth-js's signInWithSSO({ domain }) answers the provider's URL; a PKCE client is told it is not supported", async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}/auth/v1`;
    const auth = new AuthClient({ url, headers: { apikey: ctx.secrets.anonKey }, persistSession: false, autoRefreshToken: false, fetch });
    const { data, error } = await auth.signInWithSSO({ domain: 'corp.test', options: { skipBrowserRedirect: true } });
    expect(error).toBeNull();
    const target = new URL(data!.url);
    expect(`${target.origin}${target.pathname}`).toBe(`${idp.issuer}/auth`);
    expect(Object.fromEntries(target.searchParams)).toMatchObject({ client_id: idp.clientId, response_type: 'code', code_challenge_method: 'S256', redirect_uri: `${ctx.config.publicUrl}/auth/v1/sso/callback` });
    expect(target.searchParams.get('state')).toBeTruthy();
    expect(target.searchParams.get('nonce')).toBeTruthy();
    const byId = await auth.signInWithSSO({ providerId: connectionId, options: { skipBrowserRedirect: true } });
    expect(byId.data?.url).toContain(`${idp.issuer}/auth?`);
    const unknown = await auth.signInWithSSO({ domain: 'nobody.test', options: { skipBrowserRedirect: true } });
    expect(unknown.error?.code).toBe('sso_provider_not_found');
    const pkce = new AuthClient({ url, headers: { apikey: ctx.secrets.anonKey }, persistSession: false, autoRefreshToken: false, fetch, flowType: 'pkce', storage: new Map() as never });
    expect((await pkce.signInWithSSO({ domain: 'corp.test', options: { skipBrowserRedirect: true } })).error?.status).toBe(400);
  });

  it("isolation: another enterprise's admin neither sees nor changes the connection or the domain; other roles and super admins are refused", async () => {
    expect((await call(otherAdmin, 'GET', '/sso/connections')).json().data).toEqual([]);
    expect((await call(otherAdmin, 'GET', '/sso/domains')).json().data).toEqual([]);
    expect((await call(otherAdmin, 'GET', connectionUrl())).statusCode).toBe(404);
    expect((await call(otherAdmin, 'PATCH', connectionUrl(), { enforce_sso: true })).statusCode).toBe(404);
    expect((await call(otherAdmin, 'DELETE', connectionUrl())).statusCode).toBe(404);
    expect((await call(otherAdmin, 'POST', `/sso/domains/${domainId}/verify`)).statusCode).toBe(404);
    expect((await call(otherAdmin, 'DELETE', `/sso/domains/${domainId}`)).statusCode).toBe(404);
    expect((await call(member, 'GET', '/sso/connections')).statusCode).toBe(403);
    expect((await call(superAdmin, 'GET', '/sso/connections')).statusCode).toBe(403);
    // The other enterprise may claim the domain, never verify it while this one holds it.
    const claim = await call(otherAdmin, 'POST', '/sso/domains', { domain: 'corp.test' });
    expect(claim.statusCode).toBe(201);
    expect((await call(superAdmin, 'POST', `/admin/sso/domains/${claim.json().data.id}/verify`)).statusCode).toBe(409);
    expect((await call(admin, 'GET', connectionUrl())).json().data.enforce_sso).toBe(false);
  });

  it('a client admin removes the domain and the connection (audited); the domain then routes nobody', async () => {
    expect((await call(admin, 'DELETE', `/sso/domains/${domainId}`)).statusCode).toBe(200);
    const read = await call(admin, 'GET', connectionUrl());
    expect((await call(admin, 'DELETE', connectionUrl(), undefined, { 'if-match': read.headers.etag as string })).statusCode).toBe(200);
    expect((await call(admin, 'GET', connectionUrl())).statusCode).toBe(404);
    expect(await auditEntries(ctx, { entityId: connectionId, action: 'delete' })).toHaveLength(1);
    expect(await auditEntries(ctx, { entityId: domainId, action: 'delete' })).toHaveLength(1);
    expect((await ctx.app.inject({ method: 'GET', url: '/auth/v1/sso?domain=corp.test' })).statusCode).toBe(404);
  });
});
