import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { withTokens } from '../support/api.js';
import { createTestContext } from '../support/app.js';
import { auditEntries, expectAccessDenied } from '../support/audit.js';
import { assignEntity, bearer, createEnterprise, createLegalEntity, createUser, tokenFor, type TestUser } from '../support/factories.js';
import { providerCalls } from '../support/provider.js';

/** PATCH /admin/enterprises/{enterprise_id}/users/{user_id}: a member's new role (D5, as adding one). */
describe('admin: changing a member\'s role', async () => {
  const ctx = await createTestContext();
  const superAdmin = await createUser(ctx, { role: 'super_admin' });
  const saToken = await tokenFor(ctx, superAdmin);
  const home = await createEnterprise(ctx);
  const other = await createEnterprise(ctx);
  const admin = await createUser(ctx, { role: 'admin', enterpriseId: home.id });
  const adminToken = await tokenFor(ctx, admin);
  const otherAdmin = await createUser(ctx, { role: 'admin', enterpriseId: other.id });
  const { signIn, refreshGrant, me } = providerCalls(ctx);

  const url = (enterpriseId: string, userId: string) => `/api/v1/admin/enterprises/${enterpriseId}/users/${userId}`;
  const patch = (token: string, enterpriseId: string, userId: string, payload: unknown, headers: Record<string, string> = {}) =>
    ctx.app.inject({ method: 'PATCH', url: url(enterpriseId, userId), headers: { ...bearer(token), ...headers }, payload: payload as object });
  const member = (role: 'admin' | 'assessor' | 'reviewer', enterpriseId = home.id) => createUser(ctx, { role, enterpriseId });
  const roleOf = async (user: TestUser) =>
    (await ctx.db.selectFrom('enterprise_members').select('role').where('id', '=', user.memberId!).executeTakeFirstOrThrow()).role;
  const versionOf = async (user: TestUser) =>
    (await ctx.db.selectFrom('enterprise_members').select('row_version').where('id', '=', user.memberId!).executeTakeFirstOrThrow()).row_version;
  const changesOf = (user: TestUser) => auditEntries(ctx, { entityId: user.id, action: 'update' });

  describe('who may change what', () => {
    it('lets a client admin turn an assessor into a reviewer: 200 with the member as the list shows them, an ETag, an entry in its trail', async () => {
      const assessor = await member('assessor');
      const entity = await createLegalEntity(ctx, home.id, 'Alpha Ltd');
      await assignEntity(ctx, assessor, entity.id);
      const response = await patch(adminToken, home.id, assessor.id, { role: 'reviewer' });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['etag']).toBe(`"${await versionOf(assessor)}"`);
      const body = response.json();
      expect(body.message).toBe('Role changed');
      expect(body.data).toEqual({
        id: assessor.memberId,
        user_id: assessor.id,
        email: assessor.email,
        full_name: assessor.fullName,
        role: 'reviewer',
        created_at: expect.any(String),
        active: true,
        deactivated_at: null,
        // The assignments stay: a reviewer reads what the assessor assessed.
        entity_assignments: [{ legal_entity_id: entity.id, name: 'Alpha Ltd', business_unit_id: null, business_unit_name: null }],
        invitation: null,
        // What the client admin may do to a reviewer now: their role between assessor and reviewer, and the rest.
        abilities: { change_role: true, deactivate: true, reactivate: false, manage_entity_roles: true },
      });
      expect(await roleOf(assessor)).toBe('reviewer');
      const listed = (await ctx.app.inject({ method: 'GET', url: `/api/v1/admin/enterprises/${home.id}/users`, headers: bearer(adminToken) })).json();
      expect(listed.data.find((row: { user_id: string }) => row.user_id === assessor.id)).toEqual(body.data);

      const entries = await changesOf(assessor);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ enterprise_id: home.id, user_id: admin.id, action_type: 'update', entity_type: 'user', status: 'success' });
      expect(entries[0]!.action_details).toMatchObject({
        change: 'role_changed',
        enterprise_id: home.id,
        membership_id: assessor.memberId,
        changes: { role: { from: 'assessor', to: 'reviewer' } },
      });
    });

    it('lets a client admin turn a reviewer into an assessor', async () => {
      const reviewer = await member('reviewer');
      const response = await patch(adminToken, home.id, reviewer.id, { role: 'assessor' });
      expect(response.statusCode, response.body).toBe(200);
      expect(await roleOf(reviewer)).toBe('assessor');
    });

    it('lets a super admin make and unmake a client admin, recorded in the platform trail', async () => {
      const assessor = await member('assessor');
      const promoted = await patch(saToken, home.id, assessor.id, { role: 'admin' });
      expect(promoted.statusCode, promoted.body).toBe(200);
      expect(await roleOf(assessor)).toBe('admin');
      const demoted = await patch(saToken, home.id, assessor.id, { role: 'reviewer' });
      expect(demoted.statusCode, demoted.body).toBe(200);
      expect(await roleOf(assessor)).toBe('reviewer');
      const entries = await changesOf(assessor);
      expect(entries.map((entry) => [entry.enterprise_id, entry.user_id, entry.action_details['changes']])).toEqual([
        [null, superAdmin.id, { role: { from: 'assessor', to: 'admin' } }],
        [null, superAdmin.id, { role: { from: 'admin', to: 'reviewer' } }],
      ]);
    });

    it('refuses a client admin making a client admin, or changing one, with 403 and an access_denied entry; nothing changes', async () => {
      const assessor = await member('assessor');
      await expectAccessDenied(ctx, admin, await patch(adminToken, home.id, assessor.id, { role: 'admin' }));
      const fellowAdmin = await member('admin');
      await expectAccessDenied(ctx, admin, await patch(adminToken, home.id, fellowAdmin.id, { role: 'reviewer' }));
      expect([await roleOf(assessor), await roleOf(fellowAdmin)]).toEqual(['assessor', 'admin']);
      expect([...(await changesOf(assessor)), ...(await changesOf(fellowAdmin))]).toEqual([]);
    });

    it('refuses assessors and reviewers with 403, whatever the change', async () => {
      const target = await member('reviewer');
      for (const [role, user, token] of await withTokens(ctx, [await member('assessor'), await member('reviewer')])) {
        const response = await patch(token, home.id, target.id, { role: 'assessor' });
        await expectAccessDenied(ctx, user, response);
        expect(role).not.toBe('admin');
      }
      expect(await roleOf(target)).toBe('reviewer');
    });

    it('refuses one\'s own membership with 409 INVALID_STATE, even where the role could be granted', async () => {
      const response = await patch(adminToken, home.id, admin.id, { role: 'assessor' });
      expect(response.statusCode, response.body).toBe(409);
      expect(response.json()).toMatchObject({ code: 'INVALID_STATE', error: 'You cannot change your own role' });
      expect(await roleOf(admin)).toBe('admin');
    });
  });

  describe('what is not the caller\'s to see: 404, as the rest of /admin', () => {
    it('answers 404 to a client admin naming another enterprise, or a member of another enterprise under its own', async () => {
      const stranger = await member('assessor', other.id);
      for (const response of [
        await patch(adminToken, other.id, stranger.id, { role: 'reviewer' }),
        await patch(adminToken, home.id, stranger.id, { role: 'reviewer' }),
        await patch(adminToken, home.id, otherAdmin.id, { role: 'reviewer' }),
      ]) {
        expect(response.statusCode, response.body).toBe(404);
        expect(response.json().code).toBe('NOT_FOUND');
      }
      expect(await roleOf(stranger)).toBe('assessor');
    });

    it('answers 404 to a super admin naming a member under the wrong enterprise, an unknown user, a super admin, a deactivated member', async () => {
      const stranger = await member('assessor', other.id);
      const gone = await member('assessor');
      await ctx.app.inject({ method: 'DELETE', url: url(home.id, gone.id), headers: bearer(saToken) });
      const fellowSuperAdmin = await createUser(ctx, { role: 'super_admin' });
      for (const userId of [stranger.id, randomUUID(), fellowSuperAdmin.id, gone.id]) {
        const response = await patch(saToken, home.id, userId, { role: 'reviewer' });
        expect(response.statusCode, response.body).toBe(404);
        expect(response.json().code).toBe('NOT_FOUND');
      }
      expect((await patch(saToken, randomUUID(), stranger.id, { role: 'reviewer' })).statusCode).toBe(404);
    });
  });

  describe('If-Match and the same role again', () => {
    it('takes the ETag of the last answer; a stale one is 412 with the current one, and nothing changes', async () => {
      const assessor = await member('assessor');
      const first = await patch(adminToken, home.id, assessor.id, { role: 'reviewer' });
      const tag = first.headers['etag'] as string;
      const second = await patch(adminToken, home.id, assessor.id, { role: 'assessor' }, { 'if-match': tag });
      expect(second.statusCode, second.body).toBe(200);
      expect(second.headers['etag']).not.toBe(tag);
      const stale = await patch(adminToken, home.id, assessor.id, { role: 'reviewer' }, { 'if-match': tag });
      expect(stale.statusCode, stale.body).toBe(412);
      expect(stale.json()).toMatchObject({ code: 'PRECONDITION_FAILED', details: { current_etag: second.headers['etag'] } });
      expect(await roleOf(assessor)).toBe('assessor');
      expect(await changesOf(assessor)).toHaveLength(2);
    });

    it('answers the same role again with the member and the same ETag, writing nothing', async () => {
      const reviewer = await member('reviewer');
      const once = await patch(adminToken, home.id, reviewer.id, { role: 'assessor' });
      const again = await patch(adminToken, home.id, reviewer.id, { role: 'assessor' }, { 'if-match': once.headers['etag'] as string });
      expect(again.statusCode, again.body).toBe(200);
      expect(again.headers['etag']).toBe(once.headers['etag']);
      expect(again.json().data).toEqual(once.json().data);
      expect(await changesOf(reviewer)).toHaveLength(1);
    });
  });

  describe('the demoted member\'s sessions', () => {
    it('keep going with the new role at once: the token held and the one refreshed both carry it, not the old rights', async () => {
      const demoted = await member('admin');
      const session = await signIn(demoted);
      const users = (token: string) => ctx.app.inject({ method: 'GET', url: `/api/v1/admin/enterprises/${home.id}/users`, headers: bearer(token) });
      expect((await me(session.access_token)).json().data.role).toBe('admin');
      expect((await users(session.access_token)).statusCode).toBe(200);

      const response = await patch(saToken, home.id, demoted.id, { role: 'assessor' });
      expect(response.statusCode, response.body).toBe(200);

      // The access token issued before: still valid, with the new role from the next request on.
      expect((await me(session.access_token)).json().data.role).toBe('assessor');
      await expectAccessDenied(ctx, demoted, await users(session.access_token));
      // The session was not ended: its refresh token still works and yields the new role.
      const refreshed = await refreshGrant(session.refresh_token);
      expect(refreshed.statusCode, refreshed.body).toBe(200);
      const token = refreshed.json().access_token as string;
      expect((await me(token)).json().data.role).toBe('assessor');
      await expectAccessDenied(ctx, demoted, await users(token));
    });
  });

  describe('bad input, in the contract\'s error shape (D2)', () => {
    it.each([
      ['an unknown role', { role: 'owner' }, 'role'],
      ['super_admin, which no membership has', { role: 'super_admin' }, 'role'],
      ['no role', {}, 'role'],
      ['a member other than role', { role: 'reviewer', email: 'x@example.test' }, 'email'],
      ['a role that is not a string', { role: 3 }, 'role'],
    ])('refuses %s with 422 VALIDATION_ERROR naming the field', async (_what, payload, field) => {
      const target = await member('assessor');
      const response = await patch(adminToken, home.id, target.id, payload);
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json()).toEqual({
        error: expect.any(String),
        code: 'VALIDATION_ERROR',
        request_id: expect.any(String),
        details: { fields: [{ field, message: expect.any(String) }] },
      });
      expect(await roleOf(target)).toBe('assessor');
    });

    it('refuses a body that is not a JSON object, and a malformed user or enterprise id, with 400 BAD_REQUEST', async () => {
      const target = await member('assessor');
      const notJson = await ctx.app.inject({
        method: 'PATCH',
        url: url(home.id, target.id),
        headers: { ...bearer(adminToken), 'content-type': 'application/json' },
        payload: '{"role":',
      });
      expect(notJson.statusCode, notJson.body).toBe(400);
      expect(notJson.json()).toMatchObject({ code: 'BAD_REQUEST', error: expect.any(String), request_id: expect.any(String) });
      for (const path of [url(home.id, 'not-a-uuid'), url('nope', admin.id)]) {
        const response = await ctx.app.inject({ method: 'PATCH', url: path, headers: bearer(adminToken), payload: { role: 'reviewer' } });
        expect(response.statusCode, path).toBe(400);
        expect(response.json().code).toBe('BAD_REQUEST');
      }
      expect(await roleOf(target)).toBe('assessor');
    });
  });
});
