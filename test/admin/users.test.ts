import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { withTokens } from '../support/api.js';
import { createTestContext } from '../support/app.js';
import { auditEntries, countAuditEntries, expectAccessDenied } from '../support/audit.js';
import { assignEntity, createBusinessUnit, createEnterprise, createLegalEntity, createUser, tokenFor } from '../support/factories.js';
import { calls } from '../support/cast.js';

describe('admin: enterprise users (4.7, D5, D9.3)', async () => {
  const ctx = await createTestContext();
  const superAdmin = await createUser(ctx, { role: 'super_admin' });
  const saToken = await tokenFor(ctx, superAdmin);
  const home = await createEnterprise(ctx);
  const other = await createEnterprise(ctx);
  const admin = await createUser(ctx, { role: 'admin', enterpriseId: home.id });
  const adminToken = await tokenFor(ctx, admin);
  const otherAdmin = await createUser(ctx, { role: 'admin', enterpriseId: other.id });
  const assessor = await createUser(ctx, { role: 'assessor', enterpriseId: home.id });
  const reviewer = await createUser(ctx, { role: 'reviewer', enterpriseId: home.id });
  const lowRoles = await withTokens(ctx, [assessor, reviewer]);

  const { call } = calls(ctx);
  const usersUrl = (enterpriseId: string) => `/admin/enterprises/${enterpriseId}/users`;
  const newUser = (role = 'assessor') => ({ email: `${randomUUID().slice(0, 10)}@Example.TEST`, full_name: 'New Person', role });
  const auditOf = (entityId: string) => auditEntries(ctx, { entityId });

  describe('GET /admin/enterprises/{enterprise_id}/users', () => {
    it('lists active members newest first with their entity assignments (2.7)', async () => {
      const enterprise = await createEnterprise(ctx);
      const ca = await createUser(ctx, { role: 'admin', enterpriseId: enterprise.id });
      const as = await createUser(ctx, { role: 'assessor', enterpriseId: enterprise.id });
      const entity = await createLegalEntity(ctx, enterprise.id, 'Alpha Ltd');
      const unit = await createBusinessUnit(ctx, enterprise.id, entity.id, 'Payments');
      await assignEntity(ctx, as, entity.id);
      await assignEntity(ctx, as, entity.id, unit.id);
      const signedIn = new Date('2026-01-02T03:04:05.000Z');
      await ctx.db.updateTable('users').set({ last_sign_in_at: signedIn }).where('id', '=', as.id).execute();

      const response = await call(saToken, 'GET', usersUrl(enterprise.id));
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      expect(Object.keys(body)).toEqual(['data']);
      expect(body.data.map((u: { user_id: string }) => u.user_id)).toEqual([as.id, ca.id]);
      expect(body.data[0]).toEqual({
        id: as.memberId,
        user_id: as.id,
        email: as.email,
        full_name: as.fullName,
        role: 'assessor',
        created_at: expect.any(String),
        last_login: signedIn.toISOString(),
        invitation: null,
        // A super admin reads the list: every change open to them on an active member.
        abilities: { change_role: true, deactivate: true, reactivate: false, manage_entity_roles: true },
        active: true,
        deactivated_at: null,
        entity_assignments: [
          { legal_entity_id: entity.id, name: 'Alpha Ltd', business_unit_id: null, business_unit_name: null },
          { legal_entity_id: entity.id, name: 'Alpha Ltd', business_unit_id: unit.id, business_unit_name: 'Payments' },
        ],
      });
      // Never signed in: last_login is absent (2.7 "may be absent").
      expect(body.data[1]).not.toHaveProperty('last_login');
      expect(body.data[1]).toMatchObject({ role: 'admin', entity_assignments: [] });
    });

    it('lets a client admin list its own enterprise', async () => {
      const response = await call(adminToken, 'GET', usersUrl(home.id));
      expect(response.statusCode, response.body).toBe(200);
      const ids = response.json().data.map((u: { user_id: string }) => u.user_id);
      expect(ids).toEqual(expect.arrayContaining([admin.id, assessor.id, reviewer.id]));
      expect(ids).not.toContain(otherAdmin.id);
    });

    it('answers 404 to a client admin naming another enterprise, and to anyone naming an unknown one (D10.1)', async () => {
      const cross = await call(adminToken, 'GET', usersUrl(other.id));
      expect(cross.statusCode).toBe(404);
      expect(cross.json().code).toBe('NOT_FOUND');
      expect((await call(saToken, 'GET', usersUrl(randomUUID()))).statusCode).toBe(404);
    });

    it('accepts include_inactive=true|false only (D2.6)', async () => {
      expect((await call(adminToken, 'GET', `${usersUrl(home.id)}?include_inactive=false`)).statusCode).toBe(200);
      for (const value of ['1', 'yes', 'TRUE']) {
        const response = await call(adminToken, 'GET', `${usersUrl(home.id)}?include_inactive=${value}`);
        expect(response.statusCode, value).toBe(400);
        expect(response.json().code).toBe('BAD_REQUEST');
      }
    });

    it.each(lowRoles)('refuses an %s with 403 and an access_denied entry', async (_role, user, token) => {
      await expectAccessDenied(ctx, user, await call(token, 'GET', usersUrl(home.id)));
    });
  });

  describe('POST /admin/enterprises/{enterprise_id}/users', () => {
    it('lets a super admin add a client admin: 201, user and membership created, platform-trail entry', async () => {
      const payload = newUser('admin');
      const response = await call(saToken, 'POST', usersUrl(home.id), payload);
      expect(response.statusCode, response.body).toBe(201);
      const body = response.json();
      expect(body.message).toEqual(expect.any(String));
      expect(body.data).toEqual({
        id: expect.any(String),
        user_id: expect.any(String),
        email: payload.email.toLowerCase(),
        full_name: 'New Person',
        role: 'admin',
        created_at: expect.any(String),
        invitation: { sent_at: expect.any(String), expires_at: expect.any(String) },
      });
      const user = await ctx.db.selectFrom('users').selectAll().where('id', '=', body.data.user_id).executeTakeFirstOrThrow();
      expect(user).toMatchObject({ email: payload.email.toLowerCase(), password_hash: null, active: true, is_super_admin: false });
      const member = await ctx.db.selectFrom('enterprise_members').selectAll().where('id', '=', body.data.id).executeTakeFirstOrThrow();
      expect(member).toMatchObject({ enterprise_id: home.id, user_id: user.id, role: 'admin', active: true });

      const entries = await auditOf(user.id);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ enterprise_id: null, user_id: superAdmin.id, action_type: 'create', entity_type: 'user' });
      expect(entries[0]!.action_details).toMatchObject({ enterprise_id: home.id, role: 'admin' });
    });

    it('lets a client admin add assessors and reviewers, recorded in its enterprise trail', async () => {
      for (const role of ['assessor', 'reviewer']) {
        const response = await call(adminToken, 'POST', usersUrl(home.id), newUser(role));
        expect(response.statusCode, response.body).toBe(201);
        const entries = await auditOf(response.json().data.user_id);
        expect(entries).toEqual([expect.objectContaining({ enterprise_id: home.id, user_id: admin.id, action_type: 'create', entity_type: 'user' })]);
      }
    });

    it('the new user is listed and its user_id is what the identity provider admin call takes', async () => {
      const created = (await call(adminToken, 'POST', usersUrl(home.id), newUser('reviewer'))).json().data;
      const list = (await call(adminToken, 'GET', usersUrl(home.id))).json().data;
      expect(list).toContainEqual(expect.objectContaining({ id: created.id, user_id: created.user_id, role: 'reviewer' }));
    });

    it('refuses a client admin adding a client admin with 403 and an access_denied entry (4.7)', async () => {
      const before = await countAuditEntries(ctx);
      const payload = newUser('admin');
      await expectAccessDenied(ctx, admin, await call(adminToken, 'POST', usersUrl(home.id), payload));
      expect(await ctx.db.selectFrom('users').select('id').where('email', '=', payload.email.toLowerCase()).execute()).toEqual([]);
      expect(await countAuditEntries(ctx)).toBe(before + 1);
    });

    it('answers 404 to a client admin adding to another enterprise, and for an unknown enterprise', async () => {
      const cross = await call(adminToken, 'POST', usersUrl(other.id), newUser());
      expect(cross.statusCode).toBe(404);
      // Even a role it may not add: the enterprise check comes first, so nothing confirms the other one.
      expect((await call(adminToken, 'POST', usersUrl(other.id), newUser('admin'))).statusCode).toBe(404);
      expect((await call(saToken, 'POST', usersUrl(randomUUID()), newUser())).statusCode).toBe(404);
    });

    it('adds users to an inactive enterprise (3.4: inactive has no side effects)', async () => {
      const dormant = await createEnterprise(ctx, { status: 'inactive' });
      expect((await call(saToken, 'POST', usersUrl(dormant.id), newUser())).statusCode).toBe(201);
    });

    it.each(lowRoles)('refuses an %s with 403', async (_role, user, token) => {
      await expectAccessDenied(ctx, user, await call(token, 'POST', usersUrl(home.id), newUser('reviewer')));
    });

    it('refuses the e-mail of an active user, case-insensitively, with 409 CONFLICT and no audit entry (D9.3)', async () => {
      const before = await countAuditEntries(ctx);
      for (const email of [assessor.email.toUpperCase(), otherAdmin.email, superAdmin.email]) {
        const response = await call(saToken, 'POST', usersUrl(home.id), { email, full_name: 'Twin', role: 'reviewer' });
        expect(response.statusCode, email).toBe(409);
        expect(response.json().code).toBe('CONFLICT');
      }
      expect(await countAuditEntries(ctx)).toBe(before);
    });

    it("accepts the e-mail of a deactivated user: a new identity, the old one's history untouched", async () => {
      const created = (await call(adminToken, 'POST', usersUrl(home.id), newUser())).json().data;
      expect((await call(adminToken, 'DELETE', `${usersUrl(home.id)}/${created.user_id}`)).statusCode).toBe(200);
      const again = await call(adminToken, 'POST', usersUrl(home.id), { email: created.email, full_name: 'Returning', role: 'reviewer' });
      expect(again.statusCode, again.body).toBe(201);
      expect(again.json().data.user_id).not.toBe(created.user_id);
    });

    it.each([
      ['an unknown field', { ...newUser(), password: 'secret-secret' }, 'password'],
      ['a malformed e-mail', { ...newUser(), email: 'not-an-address' }, 'email'],
      ['an e-mail over 254 characters', { ...newUser(), email: `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.test` }, 'email'],
      ['a missing e-mail', { full_name: 'X', role: 'assessor' }, 'email'],
      ['a missing full name', { email: 'x@example.test', role: 'assessor' }, 'full_name'],
      ['a blank full name', { email: 'x@example.test', full_name: '  ', role: 'assessor' }, 'full_name'],
      ['an unknown role', { ...newUser(), role: 'owner' }, 'role'],
      ['the super admin role', { ...newUser(), role: 'super_admin' }, 'role'],
      ['a missing role', { email: 'x@example.test', full_name: 'X' }, 'role'],
    ])('answers 422 for %s', async (_label, payload, field) => {
      const response = await call(saToken, 'POST', usersUrl(home.id), payload);
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json().details.fields.map((f: { field: string }) => f.field)).toContain(field);
    });
  });

  describe('DELETE /admin/enterprises/{enterprise_id}/users/{user_id}', () => {
    async function member(role: 'admin' | 'assessor' | 'reviewer' = 'assessor', enterpriseId = home.id) {
      const user = await createUser(ctx, { role, enterpriseId });
      return { user, token: await tokenFor(ctx, user) };
    }

    it('deactivates: user and membership inactive, sessions revoked, token refused at once, history kept (D9.3)', async () => {
      const { user, token } = await member();
      const secondSession = await tokenFor(ctx, user);
      // The token works and its principal is now cached by the resolver.
      expect((await call(token, 'GET', '/me')).statusCode).toBe(200);
      // Leaves a trace in the enterprise's audit trail (a refused call).
      expect((await call(token, 'GET', usersUrl(home.id))).statusCode).toBe(403);
      const history = await auditEntries(ctx, { userId: user.id });
      expect(history.length).toBeGreaterThan(0);

      const response = await call(adminToken, 'DELETE', `${usersUrl(home.id)}/${user.id}`);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ message: expect.any(String) });

      for (const t of [token, secondSession]) {
        const me = await call(t, 'GET', '/me');
        expect(me.statusCode).toBe(401);
        expect(me.json().code).toBe('UNAUTHORIZED');
      }
      const row = await ctx.db.selectFrom('users').select(['active', 'deactivated_at']).where('id', '=', user.id).executeTakeFirstOrThrow();
      expect(row.active).toBe(false);
      expect(row.deactivated_at).toBeInstanceOf(Date);
      const membership = await ctx.db.selectFrom('enterprise_members').select(['active', 'deactivated_at']).where('user_id', '=', user.id).executeTakeFirstOrThrow();
      expect(membership.active).toBe(false);
      expect(membership.deactivated_at).toBeInstanceOf(Date);
      const sessions = await ctx.db.selectFrom('auth_sessions').select(['revoked_at']).where('user_id', '=', user.id).execute();
      expect(sessions).toHaveLength(2);
      expect(sessions.every((s) => s.revoked_at !== null)).toBe(true);

      const kept = await auditEntries(ctx, { userId: user.id });
      expect(kept.map((e) => e.id)).toEqual(expect.arrayContaining(history.map((e) => e.id)));

      const entries = await auditEntries(ctx, { entityId: user.id, action: 'delete' });
      expect(entries).toEqual([expect.objectContaining({ enterprise_id: home.id, user_id: admin.id, entity_type: 'user', status: 'success' })]);
    });

    it('hides deactivated users from the list unless include_inactive=true', async () => {
      const { user } = await member('reviewer');
      await call(adminToken, 'DELETE', `${usersUrl(home.id)}/${user.id}`);
      const active = (await call(adminToken, 'GET', usersUrl(home.id))).json().data;
      expect(active.map((u: { user_id: string }) => u.user_id)).not.toContain(user.id);
      const all = (await call(adminToken, 'GET', `${usersUrl(home.id)}?include_inactive=true`)).json().data;
      expect(all).toContainEqual(expect.objectContaining({ user_id: user.id, active: false, deactivated_at: expect.any(String) }));
    });

    it('lets a super admin deactivate, recorded in the platform trail', async () => {
      const { user } = await member('admin');
      expect((await call(saToken, 'DELETE', `${usersUrl(home.id)}/${user.id}`)).statusCode).toBe(200);
      expect(await auditOf(user.id)).toEqual([expect.objectContaining({ enterprise_id: null, action_type: 'delete', user_id: superAdmin.id })]);
    });

    it('refuses self-deactivation with 409 INVALID_STATE and writes nothing', async () => {
      const before = await countAuditEntries(ctx);
      const response = await call(adminToken, 'DELETE', `${usersUrl(home.id)}/${admin.id}`);
      expect(response.statusCode).toBe(409);
      expect(response.json().code).toBe('INVALID_STATE');
      expect((await call(saToken, 'DELETE', `${usersUrl(home.id)}/${superAdmin.id}`)).statusCode).toBe(409);
      expect(await countAuditEntries(ctx)).toBe(before);
      expect((await call(adminToken, 'GET', '/me')).statusCode).toBe(200);
    });

    it('answers 404 for an unknown user, a member of another enterprise, a super admin, or one already deactivated', async () => {
      const { user: elsewhere } = await member('assessor', other.id);
      const { user: gone } = await member();
      await call(adminToken, 'DELETE', `${usersUrl(home.id)}/${gone.id}`);
      for (const userId of [randomUUID(), elsewhere.id, superAdmin.id, gone.id]) {
        const response = await call(adminToken, 'DELETE', `${usersUrl(home.id)}/${userId}`);
        expect(response.statusCode, userId).toBe(404);
        expect(response.json().code).toBe('NOT_FOUND');
      }
      // A super admin naming the wrong enterprise for a member is 404 too.
      expect((await call(saToken, 'DELETE', `${usersUrl(home.id)}/${elsewhere.id}`)).statusCode).toBe(404);
      expect((await call(await tokenFor(ctx, elsewhere), 'GET', '/me')).statusCode).toBe(200);
    });

    it('answers 404 to a client admin acting on another enterprise, even for its members', async () => {
      const { user: elsewhere } = await member('assessor', other.id);
      expect((await call(adminToken, 'DELETE', `${usersUrl(other.id)}/${elsewhere.id}`)).statusCode).toBe(404);
      const still = await ctx.db.selectFrom('users').select('active').where('id', '=', elsewhere.id).executeTakeFirstOrThrow();
      expect(still.active).toBe(true);
    });

    it.each(lowRoles)('refuses an %s with 403 and an access_denied entry', async (_role, user, token) => {
      const { user: target } = await member('reviewer');
      await expectAccessDenied(ctx, user, await call(token, 'DELETE', `${usersUrl(home.id)}/${target.id}`));
    });

    it('answers 400 for malformed ids', async () => {
      expect((await call(adminToken, 'DELETE', `${usersUrl(home.id)}/nope`)).statusCode).toBe(400);
      expect((await call(adminToken, 'DELETE', `/admin/enterprises/nope/users/${assessor.id}`)).statusCode).toBe(400);
    });
  });

  it('keeps the fixtures intact (the refused and failed calls changed no one)', async () => {
    const rows = await ctx.db
      .selectFrom('users')
      .select(['id', 'active'])
      .where('id', 'in', [admin.id, assessor.id, reviewer.id, otherAdmin.id])
      .execute();
    expect(rows.every((row) => row.active)).toBe(true);
  });
});
