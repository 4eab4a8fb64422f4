import { beforeAll, describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { auditEntries } from '../support/audit.js';
import { calls } from '../support/cast.js';
import { createEnterprise, createUser } from '../support/factories.js';
import { fragmentOf } from '../support/oidc-idp.js';
import { providerCalls } from '../support/provider.js';
import { IDP_ENTITY_ID, IDP_SSO_URL, startSamlIdp, type ResponseOptions } from '../support/saml-idp.js';

/**
 * Single sign-on per enterprise through SAML 2.0, end to end over HTTP against a real IdP (samlify's, in the
 * test process, signing with its own key): the AuthnRequest by redirect, the signed response POSTed to the ACS,
 * each check the ACS makes, membership, and the session that results (as a password sign-in's).
 */
describe('single sign-on (SAML 2.0) per enterprise', async () => {
  const ctx = await createTestContext();
  const { call } = calls(ctx);
  const { refreshGrant, me } = providerCalls(ctx);
  const acsUrl = `${ctx.config.publicUrl}/auth/v1/sso/saml/acs`;
  const spEntityId = `${ctx.config.publicUrl}/auth/v1/sso/saml/metadata`;

  const spMetadata = await ctx.app.inject({ method: 'GET', url: '/auth/v1/sso/saml/metadata' });
  const idp = startSamlIdp(spMetadata.body);

  const enterprise = await createEnterprise(ctx);
  const admin = await createUser(ctx, { role: 'admin', enterpriseId: enterprise.id });
  const other = await createEnterprise(ctx);
  const otherAdmin = await createUser(ctx, { role: 'admin', enterpriseId: other.id });
  const superAdmin = await createUser(ctx, { role: 'super_admin', email: 'root@bank.test' });
  const member = await createUser(ctx, { role: 'assessor', enterpriseId: enterprise.id, email: 'ada@bank.test' });
  const foreigner = await createUser(ctx, { role: 'assessor', enterpriseId: other.id, email: 'eve@bank.test' });
  const contractor = await createUser(ctx, { role: 'reviewer', enterpriseId: enterprise.id, email: 'carl@agency.test' });

  let connectionId = '';

  /** The browser's start: the service's redirect to the IdP, the cookie it set, the request the IdP reads. */
  async function startSignIn() {
    const started = await ctx.app.inject({ method: 'GET', url: '/auth/v1/sso?domain=bank.test' });
    expect(started.statusCode, started.body).toBe(303);
    const cookie = String(started.headers['set-cookie']).split(';')[0]!;
    const redirect = new URL(started.headers.location as string);
    return { cookie, redirect, request: await idp.readRequest(redirect) };
  }

  const postToAcs = (form: Record<string, string>, cookie?: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/auth/v1/sso/saml/acs',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie === undefined ? {} : { cookie }) },
      payload: new URLSearchParams(form).toString(),
    });

  /** A whole sign-in: started, answered by the IdP as the options say, POSTed back; the redirect's fragment. */
  async function signInAs(email: string, options: ResponseOptions = {}) {
    const { cookie, request } = await startSignIn();
    const answer = await postToAcs({ SAMLResponse: await idp.respond(request.id, email, options), RelayState: request.relayState }, cookie);
    expect(answer.statusCode, answer.body).toBe(303);
    return fragmentOf(new URL(answer.headers.location as string));
  }

  const logins = (userId: string) => auditEntries(ctx, { userId, action: 'login' });

  beforeAll(async () => {
    const created = await call(admin, 'POST', '/sso/connections', { name: 'Bank Entra ID', type: 'saml', idp_metadata_xml: idp.metadata });
    expect(created.statusCode, created.body).toBe(201);
    connectionId = created.json().data.id;
    const domain = await call(admin, 'POST', '/sso/domains', { domain: 'bank.test' });
    expect((await call(superAdmin, 'POST', `/admin/sso/domains/${domain.json().data.id}/verify`)).statusCode).toBe(200);
  });

  it('our SP metadata is served without an apikey: entity id, ACS (HTTP-POST), e-mail NameID, signed assertions wanted', async () => {
    expect(spMetadata.statusCode).toBe(200);
    expect(spMetadata.headers['content-type']).toContain('application/samlmetadata+xml');
    expect(spMetadata.body).toContain(`entityID="${spEntityId}"`);
    expect(spMetadata.body).toContain(`Location="${acsUrl}"`);
    expect(spMetadata.body).toContain('urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST');
    expect(spMetadata.body).toContain('WantAssertionsSigned="true"');
    expect(spMetadata.body).toContain('nameid-format:emailAddress');
  });

  it("a client admin imports the IdP's metadata: the parsed fields and our SP values are answered, audited", async () => {
    const read = await call(admin, 'GET', `/sso/connections/${connectionId}`);
    expect(read.statusCode).toBe(200);
    const data = read.json().data;
    expect(data).toMatchObject({ type: 'saml', name: 'Bank Entra ID', issuer: null, client_id: null, client_secret_set: false, enforce_sso: false, jit_role: null });
    expect(data.saml).toMatchObject({ idp_entity_id: IDP_ENTITY_ID, idp_sso_url: IDP_SSO_URL, sp_entity_id: spEntityId, acs_url: acsUrl, metadata_url: spEntityId });
    expect(data.saml.idp_certificates).toEqual([expect.objectContaining({ subject: 'CN=test-saml-idp', fingerprint_sha256: expect.stringMatching(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/) })]);
    const [entry] = await auditEntries(ctx, { entityId: connectionId, action: 'create' });
    expect(entry).toMatchObject({ entity_type: 'sso_connection', user_id: admin.id, enterprise_id: enterprise.id });
    expect(entry!.action_details).toMatchObject({ type: 'saml', idp_entity_id: IDP_ENTITY_ID, idp_sso_url: IDP_SSO_URL });
  });

  it('metadata that cannot serve is 422 on idp_metadata_xml; fields of the other protocol or a protocol change, 422 per field', async () => {
    const refusedFor = async (body: Record<string, unknown>) => {
      const response = await call(admin, 'POST', '/sso/connections', { name: 'Broken', ...body });
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
      return response.json().details.fields.map((field: { field: string }) => field.field);
    };
    expect(await refusedFor({ type: 'saml', idp_metadata_xml: '<not xml' })).toEqual(['idp_metadata_xml']);
    expect(await refusedFor({ type: 'saml', idp_metadata_xml: '<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="x"/>' })).toEqual(['idp_metadata_xml']);
    expect(await refusedFor({ type: 'saml', idp_metadata_xml: idp.metadata.replace(/<(\w+:)?KeyDescriptor[\s\S]*<\/(\w+:)?KeyDescriptor>/, '') })).toEqual(['idp_metadata_xml']);
    expect(await refusedFor({ type: 'saml', idp_metadata_xml: idp.metadata.replace(/HTTP-Redirect/g, 'HTTP-Artifact') })).toEqual(['idp_metadata_xml']);
    expect(await refusedFor({ type: 'saml', idp_metadata_xml: idp.metadata.replace(/<(\w+:)?X509Certificate>[^<]+/, '<$1X509Certificate>bm90IGEgY2VydA==') })).toEqual(['idp_metadata_xml']);
    expect(await refusedFor({ type: 'saml' })).toEqual(['idp_metadata_xml']);
    expect(await refusedFor({ type: 'saml', idp_metadata_xml: idp.metadata, client_id: 'x' })).toEqual(['client_id']);
    expect(await refusedFor({ idp_metadata_xml: idp.metadata })).toEqual(expect.arrayContaining(['idp_metadata_xml', 'issuer']));
    const read = await call(admin, 'GET', `/sso/connections/${connectionId}`);
    const change = await call(admin, 'PATCH', `/sso/connections/${connectionId}`, { type: 'oidc' }, { 'if-match': read.headers.etag as string });
    expect(change.statusCode).toBe(422);
    expect(change.json().details.fields[0].field).toBe('type');
  });

  it('a member signs in through the IdP: the usual session (API, refresh), audited as login naming the connection', async () => {
    const { cookie, redirect, request } = await startSignIn();
    // The AuthnRequest goes to the imported SSO URL, for our ACS, with the flow's state as RelayState.
    expect(`${redirect.origin}${redirect.pathname}`).toBe(IDP_SSO_URL);
    expect(request).toMatchObject({ destination: IDP_SSO_URL, acs: acsUrl });
    expect(request.relayState).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(cookie).toMatch(/^sso_flow=/);
    const answer = await postToAcs({ SAMLResponse: await idp.respond(request.id, 'Ada@bank.test'), RelayState: request.relayState }, cookie);
    expect(answer.statusCode).toBe(303);
    const session = fragmentOf(new URL(answer.headers.location as string));
    expect(session).toMatchObject({ token_type: 'bearer', type: 'sso' });
    const profile = await me(session['access_token']!);
    expect(profile.statusCode).toBe(200);
    expect(profile.json().data).toMatchObject({ user_id: member.id, role: 'assessor', enterprise_id: enterprise.id });
    const refreshed = await refreshGrant(session['refresh_token']!);
    expect(refreshed.statusCode).toBe(200);
    expect((await me(refreshed.json().access_token)).statusCode).toBe(200);
    const user = await ctx.app.inject({ method: 'GET', url: '/auth/v1/user', headers: { apikey: ctx.secrets.anonKey, authorization: `Bearer ${refreshed.json().access_token}` } });
    expect(user.statusCode).toBe(200);
    expect(user.json()).toMatchObject({ id: member.id, email: 'ada@bank.test' });
    expect((await logins(member.id)).at(-1)).toMatchObject({ status: 'success', enterprise_id: enterprise.id });
    expect((await logins(member.id)).at(-1)!.action_details).toMatchObject({ method: 'sso', connection_id: connectionId, connection: 'Bank Entra ID', subject: 'Ada@bank.test' });
  });

  it('a replay (the same response posted twice) is refused: the sign-in it names is used', async () => {
    const { cookie, request } = await startSignIn();
    const form = { SAMLResponse: await idp.respond(request.id, 'ada@bank.test'), RelayState: request.relayState };
    expect(fragmentOf(new URL((await postToAcs(form, cookie)).headers.location as string))['access_token']).toBeDefined();
    const replay = await postToAcs(form, cookie);
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({ error_code: 'bad_oauth_state' });
  });

  it('an unsolicited (IdP-initiated) response is refused: with no RelayState (400), and with no InResponseTo (refused to the redirect)', async () => {
    const unsolicited = await postToAcs({ SAMLResponse: await idp.respond(null, 'ada@bank.test') });
    expect(unsolicited.statusCode).toBe(400);
    expect(unsolicited.json()).toMatchObject({ error_code: 'bad_oauth_state' });
    const { cookie, request } = await startSignIn();
    const answer = await postToAcs({ SAMLResponse: await idp.respond(null, 'ada@bank.test'), RelayState: request.relayState }, cookie);
    expect(fragmentOf(new URL(answer.headers.location as string))).toMatchObject({ error: 'access_denied', error_code: 'bad_saml_response' });
    // Another sign-in's request id does not answer this one either.
    const a = await startSignIn();
    const b = await startSignIn();
    const crossed = await postToAcs({ SAMLResponse: await idp.respond(a.request.id, 'ada@bank.test'), RelayState: b.request.relayState }, b.cookie);
    expect(fragmentOf(new URL(crossed.headers.location as string))).toMatchObject({ error_code: 'bad_saml_response' });
  });

  it('a response posted from another browser than the one that started the sign-in is refused (its cookie binds the relay state)', async () => {
    const { request } = await startSignIn();
    const elsewhere = await postToAcs({ SAMLResponse: await idp.respond(request.id, 'ada@bank.test'), RelayState: request.relayState });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json()).toMatchObject({ error_code: 'bad_oauth_state' });
  });

  const past = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
  for (const [what, options, why] of [
    ['an unsigned assertion (nothing signed)', { unsigned: true }, /Invalid signature/],
    ['an unsigned assertion in a signed response', { responseSignedOnly: true }, /Invalid signature/],
    ['a signature by a key the metadata does not hold', { foreignKey: true }, /Invalid signature/],
    ['another audience', { tags: { Audience: 'https://another-sp.test/saml' } }, /audience mismatch/],
    ['another recipient', { tags: { SubjectRecipient: 'https://another-sp.test/acs' } }, /Recipient/],
    ['another destination', { tags: { Destination: 'https://another-sp.test/acs' } }, /addressed to/],
    ['another issuer', { tags: { Issuer: 'https://another-idp.test' } }, /issuer/],
    ['an expired assertion', { tags: { ConditionsNotBefore: past(20), ConditionsNotOnOrAfter: past(10), SubjectConfirmationDataNotOnOrAfter: past(10) } }, /subject confirmation/],
    ['expired conditions (its subject confirmation still valid)', { tags: { ConditionsNotBefore: past(20), ConditionsNotOnOrAfter: past(10) } }, /expired/i],
    ['conditions not yet valid (beyond the clock skew)', { tags: { ConditionsNotBefore: past(-10) } }, /not yet valid/i],
  ] as const) {
    it(`${what} is refused, and no session starts`, async () => {
      const before = (await logins(member.id)).length;
      const outcome = await signInAs('ada@bank.test', options);
      expect(outcome).toMatchObject({ error: 'access_denied', error_code: 'bad_saml_response' });
      expect(outcome['error_description']).toMatch(why);
      expect(outcome['access_token']).toBeUndefined();
      expect(await logins(member.id)).toHaveLength(before);
    });
  }

  it('the e-mail is the NameID (emailAddress format) or else an e-mail attribute; with neither, the sign-in is refused', async () => {
    const unspecified = { NameIDFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified', NameID: 'a1b2c3' };
    const byAttribute = await signInAs('ignored', { tags: unspecified, attributes: { 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress': 'ada@bank.test' } });
    expect((await me(byAttribute['access_token']!)).json().data).toMatchObject({ user_id: member.id });
    expect((await logins(member.id)).at(-1)!.action_details).toMatchObject({ subject: 'a1b2c3' });
    expect(await signInAs('ignored', { tags: unspecified })).toMatchObject({ error_code: 'email_not_confirmed' });
  });

  it('an e-mail outside the verified domains is refused; a member of another enterprise (audited in their trail) and a super admin too', async () => {
    expect(await signInAs(contractor.email)).toMatchObject({ error_code: 'sso_domain_not_verified' });
    expect(await signInAs(foreigner.email)).toMatchObject({ error: 'access_denied', error_code: 'sso_user_not_member' });
    const [refused] = await logins(foreigner.id);
    expect(refused).toMatchObject({ status: 'failed', enterprise_id: other.id });
    expect(refused!.action_details).toMatchObject({ method: 'sso', reason: 'not_member', connection_id: connectionId });
    expect(await signInAs(superAdmin.email)).toMatchObject({ error_code: 'sso_user_not_member' });
  });

  it('just-in-time membership makes a newcomer of the verified domain a member with its role', async () => {
    expect(await signInAs('newcomer@bank.test')).toMatchObject({ error_code: 'signup_disabled' });
    const read = await call(admin, 'GET', `/sso/connections/${connectionId}`);
    const changed = await call(admin, 'PATCH', `/sso/connections/${connectionId}`, { jit_role: 'reviewer', idp_metadata_xml: idp.metadata }, { 'if-match': read.headers.etag as string });
    expect(changed.statusCode, changed.body).toBe(200);
    const session = await signInAs('newcomer@bank.test');
    expect((await me(session['access_token']!)).json().data).toMatchObject({ email: 'newcomer@bank.test', role: 'reviewer', enterprise_id: enterprise.id });
  });

  it("a certificate rotation: the IdP's new metadata imported, the old key's assertions are refused", async () => {
    const read = await call(admin, 'GET', `/sso/connections/${connectionId}`);
    const changed = await call(admin, 'PATCH', `/sso/connections/${connectionId}`, { idp_metadata_xml: idp.foreignMetadata }, { 'if-match': read.headers.etag as string });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data.saml.idp_certificates[0].subject).toBe('CN=test-saml-foreign');
    const [entry] = (await auditEntries(ctx, { entityId: connectionId, action: 'update' })).slice(-1);
    expect(entry!.action_details).toMatchObject({ changes: { idp_certificates: 'replaced', idp_metadata_xml: 'replaced' } });
    expect(await signInAs('ada@bank.test')).toMatchObject({ error_code: 'bad_saml_response' });
    expect((await signInAs('ada@bank.test', { foreignKey: true }))['access_token']).toBeDefined();
  });

  it("isolation: another enterprise's admin neither sees nor changes the connection", async () => {
    expect((await call(otherAdmin, 'GET', '/sso/connections')).json().data).toEqual([]);
    expect((await call(otherAdmin, 'GET', `/sso/connections/${connectionId}`)).statusCode).toBe(404);
    expect((await call(otherAdmin, 'PATCH', `/sso/connections/${connectionId}`, { idp_metadata_xml: idp.metadata })).statusCode).toBe(404);
  });

  it('the ACS takes only a form, bounded: JSON is 415, a missing SAMLResponse 400', async () => {
    const json = await ctx.app.inject({ method: 'POST', url: '/auth/v1/sso/saml/acs', payload: { SAMLResponse: 'x' } });
    expect(json.statusCode).toBe(415);
    expect((await postToAcs({ RelayState: 'x' })).statusCode).toBe(400);
  });
});
