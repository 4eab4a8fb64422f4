import { describe, expect, it } from 'vitest';
import { createBra } from '../support/bras-factories.js';
import { createTestContext } from '../support/app.js';
import { createEnterprise, createLegalEntity, createUser, tokenFor } from '../support/factories.js';
import { serviceAccountCalls } from './service-accounts-support.js';

describe('service accounts: identities of integrations, with a role and entity assignments', async () => {
  const ctx = await createTestContext();
  const enterprise = await createEnterprise(ctx);
  const admin = await createUser(ctx, { role: 'admin', enterpriseId: enterprise.id });
  const adminToken = await tokenFor(ctx, admin);
  const { call, createAccount, issueToken, inDays } = serviceAccountCalls(ctx, adminToken);
  const e1 = await createLegalEntity(ctx, enterprise.id);
  const e2 = await createLegalEntity(ctx, enterprise.id);
  const braInE1 = await createBra(ctx, { enterpriseId: enterprise.id, legalEntityId: e1.id, createdBy: admin.id });
  const braInE2 = await createBra(ctx, { enterpriseId: enterprise.id, legalEntityId: e2.id, createdBy: admin.id });

  it('a token authenticates as Bearer and /me shows the account, its role and its assignments', async () => {
    const account = await createAccount({ name: 'Warehouse', role: 'reviewer', entity_assignments: [{ legal_entity_id: e1.id }] });
    const issued = await issueToken(account.id);
    expect(issued.token).toMatch(/^rsk_sa_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/);
    const me = await call(issued.token, 'GET', '/me');
    expect(me.statusCode).toBe(200);
    expect(me.json().data).toMatchObject({
      user_id: account.id,
      full_name: 'Warehouse',
      role: 'reviewer',
      enterprise_id: enterprise.id,
      kind: 'service_account',
      entity_assignments: [{ legal_entity_id: e1.id, name: e1.name }],
    });
    expect((await call(adminToken, 'GET', '/me')).json().data.kind).toBe('user');
  });

  it('scope: the policies apply to its role and assignments as to a member (assigned entity yes, another no, admin routes no)', async () => {
    const account = await createAccount({ name: 'Scoped', role: 'assessor', entity_assignments: [{ legal_entity_id: e1.id }] });
    const { token } = await issueToken(account.id);
    expect((await call(token, 'GET', `/bras/${braInE1.id}`)).statusCode).toBe(200);
    expect((await call(token, 'GET', `/bras/${braInE2.id}`)).statusCode).toBe(403);
    const list = (await call(token, 'GET', '/bras')).json();
    expect(list.data.map((bra: { id: string }) => bra.id)).toEqual([braInE1.id]);
    expect((await call(token, 'POST', '/controls/key-controls', { name: 'K', description: 'd' })).statusCode).toBe(403);
    expect((await call(token, 'GET', `/admin/enterprises/${enterprise.id}/users`)).statusCode).toBe(403);
  });

  it('a change made with a token is audited as the service account (user_id and user_name)', async () => {
    const account = await createAccount({ name: 'Writer', role: 'admin' });
    const { token } = await issueToken(account.id);
    const created = await call(token, 'POST', '/risk-scenarios', { name: 'Scenario by integration', category: 'External fraud' });
    expect(created.statusCode).toBe(201);
    const entry = await ctx.db.selectFrom('audit_log').selectAll().where('entity_id', '=', created.json().data.id).executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ user_id: account.id, user_name: 'Writer', action_type: 'create', enterprise_id: enterprise.id });
    expect(entry.user_email).toMatch(/@service-accounts\.invalid$/);
  });

  it('never a super admin: the role is refused (422), and another role name too', async () => {
    for (const role of ['super_admin', 'owner']) {
      const response = await call(adminToken, 'POST', '/service-accounts', { name: `Bad ${role}`, role });
      expect(response.statusCode).toBe(422);
    }
  });

  it('an expiry is required, in the future, and at most the configured maximum ahead', async () => {
    const account = await createAccount({ name: 'Expiry', role: 'reviewer' });
    const url = `/service-accounts/${account.id}/tokens`;
    expect((await call(adminToken, 'POST', url, { name: 't' })).statusCode).toBe(422);
    const past = await call(adminToken, 'POST', url, { name: 't', expires_at: inDays(-1) });
    expect(past.statusCode).toBe(422);
    expect(past.json().details.fields[0].field).toBe('expires_at');
    const tooFar = await call(adminToken, 'POST', url, { name: 't', expires_at: inDays(ctx.config.serviceAccounts.tokenMaxDays + 1) });
    expect(tooFar.statusCode).toBe(422);
    expect(tooFar.json().details.fields[0].message).toContain('SERVICE_ACCOUNT_TOKEN_MAX_DAYS');
  });

  it('an expired token is refused with 401', async () => {
    const account = await createAccount({ name: 'Expired', role: 'reviewer' });
    const issued = await issueToken(account.id);
    await ctx.db.updateTable('service_account_tokens').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', issued.id).execute();
    const response = await call(issued.token, 'GET', '/me');
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('UNAUTHORIZED');
  });

  it('shown once, stored hashed: lists carry the hint, never the token, and the database holds no token', async () => {
    const account = await createAccount({ name: 'Hashed', role: 'reviewer' });
    const issued = await issueToken(account.id);
    const list = await call(adminToken, 'GET', `/service-accounts/${account.id}/tokens`);
    expect(list.body).not.toContain(issued.token.slice(40));
    expect(list.json().data[0]).toMatchObject({ id: issued.id, hint: issued.hint, status: 'active' });
    const row = await ctx.db.selectFrom('service_account_tokens').selectAll().where('id', '=', issued.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(issued.token.slice(40));
  });

  it('revocation: the token is refused at its next request, and the audit trail names the token', async () => {
    const account = await createAccount({ name: 'Revoked', role: 'reviewer' });
    const issued = await issueToken(account.id);
    expect((await call(issued.token, 'GET', '/me')).statusCode).toBe(200);
    const revoked = await call(adminToken, 'DELETE', `/service-accounts/${account.id}/tokens/${issued.id}`);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().data.status).toBe('revoked');
    expect((await call(issued.token, 'GET', '/me')).statusCode).toBe(401);
    const entry = await ctx.db.selectFrom('audit_log').select('action_details').where('entity_id', '=', account.id).orderBy('chain_seq', 'desc').executeTakeFirstOrThrow();
    expect(entry.action_details).toMatchObject({ change: 'token_revoked', token_id: issued.id });
  });

  it('deactivating the account revokes every token at once', async () => {
    const account = await createAccount({ name: 'Leaver', role: 'reviewer' });
    const [first, second] = [await issueToken(account.id), await issueToken(account.id)];
    const read = await call(adminToken, 'GET', `/service-accounts/${account.id}`);
    const response = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/v1/service-accounts/${account.id}`,
      headers: { authorization: `Bearer ${adminToken}`, 'if-match': read.headers.etag as string },
    });
    expect(response.statusCode).toBe(200);
    for (const token of [first.token, second.token]) expect((await call(token, 'GET', '/me')).statusCode).toBe(401);
    expect((await call(adminToken, 'GET', `/service-accounts/${account.id}`)).json().data).toMatchObject({ active: false, live_tokens: 0 });
  });

  it('rotation: the new token works, the old one during the overlap only', async () => {
    const account = await createAccount({ name: 'Rotated', role: 'reviewer' });
    const old = await issueToken(account.id, { allowed_ips: ['127.0.0.1'] });
    const rotated = await call(adminToken, 'POST', `/service-accounts/${account.id}/tokens/${old.id}/rotate`, { expires_at: inDays(60), overlap_hours: 2 });
    expect(rotated.statusCode).toBe(201);
    const successor = rotated.json().data;
    expect(successor).toMatchObject({ rotated_from: old.id, allowed_ips: ['127.0.0.1'], name: 'test token' });
    expect((await call(successor.token, 'GET', '/me')).statusCode).toBe(200);
    expect((await call(old.token, 'GET', '/me')).statusCode).toBe(200);
    const oldRow = await ctx.db.selectFrom('service_account_tokens').select('expires_at').where('id', '=', old.id).executeTakeFirstOrThrow();
    expect(Math.abs(oldRow.expires_at.getTime() - (Date.now() + 2 * 3600_000))).toBeLessThan(60_000);
    // The overlap over: the old token is refused, its successor still works.
    await ctx.db.updateTable('service_account_tokens').set({ expires_at: new Date(Date.now() - 1) }).where('id', '=', old.id).execute();
    expect((await call(old.token, 'GET', '/me')).statusCode).toBe(401);
    expect((await call(successor.token, 'GET', '/me')).statusCode).toBe(200);
    const tooLong = await call(adminToken, 'POST', `/service-accounts/${account.id}/tokens/${successor.id}/rotate`, {
      expires_at: inDays(60),
      overlap_hours: ctx.config.serviceAccounts.rotationOverlapMaxHours + 1,
    });
    expect(tooLong.statusCode).toBe(422);
  });

  it('IP allow-list: accepted from a listed address, refused (403, access_denied as the account) from another', async () => {
    const account = await createAccount({ name: 'Pinned', role: 'reviewer' });
    const { token } = await issueToken(account.id, { allowed_ips: ['192.0.2.0/24'] });
    const from = (remoteAddress: string) => ctx.app.inject({ method: 'GET', url: '/api/v1/me', remoteAddress, headers: { authorization: `Bearer ${token}` } });
    expect((await from('192.0.2.44')).statusCode).toBe(200);
    const refused = await from('198.51.100.7');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('FORBIDDEN');
    const denied = await ctx.db
      .selectFrom('audit_log')
      .selectAll()
      .where('user_id', '=', account.id)
      .where('action_type', '=', 'access_denied')
      .executeTakeFirstOrThrow();
    expect(denied.ip_address).toBe('198.51.100.7');
    const bad = await call(adminToken, 'POST', `/service-accounts/${account.id}/tokens`, { name: 't', expires_at: inDays(1), allowed_ips: ['not-an-ip'] });
    expect(bad.statusCode).toBe(422);
  });

  it('last use is recorded (time and address)', async () => {
    const account = await createAccount({ name: 'Used', role: 'reviewer' });
    const issued = await issueToken(account.id);
    await ctx.app.inject({ method: 'GET', url: '/api/v1/me', remoteAddress: '203.0.113.9', headers: { authorization: `Bearer ${issued.token}` } });
    const token = (await call(adminToken, 'GET', `/service-accounts/${account.id}/tokens`)).json().data[0];
    expect(token.last_used_ip).toBe('203.0.113.9');
    expect(Date.now() - new Date(token.last_used_at).getTime()).toBeLessThan(60_000);
    expect((await call(adminToken, 'GET', `/service-accounts/${account.id}`)).json().data.last_used_at).toBe(token.last_used_at);
  });

  it("a service account's token cannot manage service accounts or tokens, even an admin one (403)", async () => {
    const account = await createAccount({ name: 'Admin integration', role: 'admin' });
    const { token } = await issueToken(account.id);
    expect((await call(token, 'POST', '/service-accounts', { name: 'Successor', role: 'admin' })).statusCode).toBe(403);
    expect((await call(token, 'POST', `/service-accounts/${account.id}/tokens`, { name: 't', expires_at: inDays(1) })).statusCode).toBe(403);
  });

  it('only client admins manage them; another enterprise sees none (404)', async () => {
    const account = await createAccount({ name: 'Private', role: 'reviewer' });
    const assessor = await createUser(ctx, { role: 'assessor', enterpriseId: enterprise.id });
    expect((await call(await tokenFor(ctx, assessor), 'GET', '/service-accounts')).statusCode).toBe(403);
    const otherAdmin = await createUser(ctx, { role: 'admin' });
    const otherToken = await tokenFor(ctx, otherAdmin);
    expect((await call(otherToken, 'GET', `/service-accounts/${account.id}`)).statusCode).toBe(404);
    expect((await call(otherToken, 'GET', '/service-accounts')).json().data).toEqual([]);
    const superAdmin = await createUser(ctx, { role: 'super_admin' });
    expect((await call(await tokenFor(ctx, superAdmin), 'GET', '/service-accounts')).statusCode).toBe(403);
  });

  it('a changed role or assignment holds from the next request; names are unique among active accounts (409)', async () => {
    const account = await createAccount({ name: 'Mover', role: 'reviewer', entity_assignments: [{ legal_entity_id: e1.id }] });
    const { token } = await issueToken(account.id);
    expect((await call(token, 'GET', `/bras/${braInE2.id}`)).statusCode).toBe(403);
    const read = await call(adminToken, 'GET', `/service-accounts/${account.id}`);
    const changed = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/v1/service-accounts/${account.id}`,
      headers: { authorization: `Bearer ${adminToken}`, 'if-match': read.headers.etag as string },
      payload: { entity_assignments: [{ legal_entity_id: e2.id }] },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(read.headers.etag);
    expect((await call(token, 'GET', `/bras/${braInE2.id}`)).statusCode).toBe(200);
    expect((await call(adminToken, 'POST', '/service-accounts', { name: 'mover', role: 'reviewer' })).statusCode).toBe(409);
    const foreignEntity = await createLegalEntity(ctx, (await createEnterprise(ctx)).id);
    const bad = await call(adminToken, 'POST', '/service-accounts', { name: 'Bad ref', role: 'reviewer', entity_assignments: [{ legal_entity_id: foreignEntity.id }] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('INVALID_REFERENCE');
  });
});

describe('service accounts: rate limits per account, whatever the address', async () => {
  const ctx = await createTestContext({ env: { RATE_LIMIT_PER_MINUTE: '3', RATE_LIMIT_PER_HOUR: '100' } });
  // Each admin stays within its own budget of 3: the accounts' budgets are what is under test.
  const admin = await createUser(ctx, { role: 'admin' });
  const { createAccount, issueToken } = serviceAccountCalls(ctx, await tokenFor(ctx, admin));
  const otherAdmin = await createUser(ctx, { role: 'admin', enterpriseId: admin.enterpriseId! });
  const others = serviceAccountCalls(ctx, await tokenFor(ctx, otherAdmin));

  it('counts the requests of all its tokens together, from any address, apart from others', async () => {
    const account = await createAccount({ name: 'Busy', role: 'reviewer' });
    const [first, second] = [await issueToken(account.id), await issueToken(account.id)];
    const me = (token: string, remoteAddress: string) => ctx.app.inject({ method: 'GET', url: '/api/v1/me', remoteAddress, headers: { authorization: `Bearer ${token}` } });
    expect((await me(first.token, '192.0.2.1')).statusCode).toBe(200);
    expect((await me(second.token, '192.0.2.2')).statusCode).toBe(200);
    const third = await me(first.token, '192.0.2.3');
    expect(third.statusCode).toBe(200);
    expect(third.headers['x-ratelimit-remaining']).toBe('0');
    const refused = await me(second.token, '192.0.2.4');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('RATE_LIMIT_EXCEEDED');
    const other = await others.createAccount({ name: 'Quiet', role: 'reviewer' });
    expect((await me((await others.issueToken(other.id)).token, '192.0.2.4')).statusCode).toBe(200);
  });
});
