import { describe, expect, it } from 'vitest';
import { TEST_PUBLIC_URL, createTestContext } from '../support/app.js';
import { auditEntries } from '../support/audit.js';
import { cast, calls } from '../support/cast.js';
import { bearer, createUser, tokenFor, type TestUser } from '../support/factories.js';
import { providerCalls } from '../support/provider.js';
import { eventually, linkOf, startSmtpReceiver } from '../support/smtp.js';

describe('/admin/super-admins: list and add', async () => {
  const smtp = await startSmtpReceiver();
  const ctx = await createTestContext({ env: { SMTP_URL: smtp.url } });
  const { anon, me } = providerCalls(ctx);
  const { superAdmin: root, admin, assessor, reviewer, call } = await cast(ctx);
  const SUPER_ADMINS = '/admin/super-admins';

  it('lists the active super admins only; every enterprise role is refused (403)', async () => {
    const list = await call(root, 'GET', SUPER_ADMINS);
    expect(list.statusCode).toBe(200);
    const ids = list.json().data.map((row: { user_id: string }) => row.user_id);
    expect(ids).toContain(root.id);
    expect(ids).not.toContain(admin.id);
    expect(list.json().data.find((row: { user_id: string }) => row.user_id === root.id)).toMatchObject({ email: root.email, has_password: true });
    for (const user of [admin, assessor, reviewer]) {
      expect((await call(user, 'GET', SUPER_ADMINS)).statusCode, user.role).toBe(403);
      expect((await call(user, 'POST', SUPER_ADMINS, { email: 'x@example.test', full_name: 'X' })).statusCode, user.role).toBe(403);
      expect((await call(user, 'DELETE', `${SUPER_ADMINS}/${root.id}`)).statusCode, user.role).toBe(403);
    }
  });

  it('a new super admin is created and invited; the link sets a password; audited in the platform trail', async () => {
    const response = await call(root, 'POST', SUPER_ADMINS, { email: 'New.Ops@Example.test', full_name: 'New Ops' });
    expect(response.statusCode, response.body).toBe(201);
    const data = response.json().data;
    expect(data).toMatchObject({ email: 'new.ops@example.test', full_name: 'New Ops', has_password: false });
    expect(data.invitation.expires_at).toEqual(expect.any(String));
    const mail = await eventually(() => smtp.received.find((m) => m.to.includes('new.ops@example.test')), 'the invitation');
    expect(mail.decoded).toContain('the Risk Assurance platform as a super admin');
    const link = linkOf(mail, TEST_PUBLIC_URL);
    const verified = await ctx.app.inject({ method: 'POST', url: '/auth/v1/verify', headers: anon, payload: { token_hash: link.token, type: 'invite' } });
    expect(verified.statusCode).toBe(200);
    const session = verified.json();
    const set = await ctx.app.inject({ method: 'PUT', url: '/auth/v1/user', headers: { ...anon, ...bearer(session.access_token) }, payload: { password: 'operator-passphrase' } });
    expect(set.statusCode).toBe(200);
    expect((await me(session.access_token)).json().data).toMatchObject({ role: 'super_admin', enterprise_id: null });
    const entries = await auditEntries(ctx, { entityId: data.user_id, action: 'create' });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ enterprise_id: null, user_id: root.id, entity_type: 'user' });
  });

  it('an existing user without an enterprise is promoted (200), and invited since they never set a password', async () => {
    const loner = await ctx.db.insertInto('users').values({ email: 'loner@example.test', full_name: 'Lo Ner', password_hash: null }).returning('id').executeTakeFirstOrThrow();
    const response = await call(root, 'POST', SUPER_ADMINS, { email: 'LONER@example.test', full_name: 'ignored' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({ user_id: loner.id, full_name: 'Lo Ner', has_password: false });
    expect(response.json().data.invitation.expires_at).toEqual(expect.any(String));
    await eventually(() => smtp.received.find((m) => m.to.includes('loner@example.test')), 'the invitation of the promoted user');
    // One with a password is promoted without a mail.
    const ready = await createUser(ctx, { role: 'super_admin' });
    await ctx.db.updateTable('users').set({ is_super_admin: false }).where('id', '=', ready.id).execute();
    expect((await call(root, 'POST', SUPER_ADMINS, { email: ready.email, full_name: 'x' })).json().data.invitation).toBeNull();
    const entries = await auditEntries(ctx, { entityId: loner.id, action: 'update' });
    expect(entries[0]).toMatchObject({ enterprise_id: null });
    expect(entries[0]!.action_details).toMatchObject({ change: 'super_admin_granted' });
  });

  it('an enterprise member or a super admin already: 409 CONFLICT; a bad body: 422', async () => {
    expect((await call(root, 'POST', SUPER_ADMINS, { email: reviewer.email, full_name: 'M' })).json().code).toBe('CONFLICT');
    expect((await call(root, 'POST', SUPER_ADMINS, { email: root.email, full_name: 'R' })).json().code).toBe('CONFLICT');
    expect((await call(root, 'POST', SUPER_ADMINS, { email: 'not-an-email', full_name: 'R' })).statusCode).toBe(422);
    expect((await call(root, 'POST', SUPER_ADMINS, { email: 'a@example.test', full_name: 'R', role: 'admin' })).statusCode).toBe(422);
  });
});

describe('/admin/super-admins: removal, never the last one', async () => {
  const ctx = await createTestContext();
  const { me } = providerCalls(ctx);
  const { call } = calls(ctx);
  // No cast here: the rule is about how many super admins there are, so this database holds only the ones each test makes.
  const remove = (userId: string, as: TestUser) => call(as, 'DELETE', `/admin/super-admins/${userId}`);

  it('the last active super admin cannot be removed, not even by themselves (409); with another one left they can', async () => {
    const first = await createUser(ctx, { role: 'super_admin' });
    const alone = await remove(first.id, first);
    expect(alone.statusCode).toBe(409);
    expect(alone.json().code).toBe('INVALID_STATE');

    const second = await createUser(ctx, { role: 'super_admin' });
    const token = await tokenFor(ctx, first);
    const self = await remove(first.id, first);
    expect(self.statusCode, self.body).toBe(200);
    // The demoted user is no longer a super admin: the admin paths refuse them.
    expect((await me(token)).statusCode).toBe(403);
    const entries = await auditEntries(ctx, { entityId: first.id, action: 'update' });
    expect(entries.at(-1)).toMatchObject({ enterprise_id: null });
    expect(entries.at(-1)!.action_details).toMatchObject({ change: 'super_admin_revoked', self: true, remaining: 1 });

    expect((await remove(second.id, second)).statusCode).toBe(409);
    expect((await ctx.db.selectFrom('users').select('is_super_admin').where('id', '=', second.id).executeTakeFirstOrThrow()).is_super_admin).toBe(true);
  });

  it('a user who is not an active super admin: 404', async () => {
    const root = await createUser(ctx, { role: 'super_admin' });
    const member = await createUser(ctx, { role: 'admin' });
    expect((await remove(member.id, root)).statusCode).toBe(404);
    expect((await remove(crypto.randomUUID(), root)).statusCode).toBe(404);
  });
});
