import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { withTokens } from '../support/api.js';
import { createTestContext } from '../support/app.js';
import { auditEntries, countAuditEntries, expectAccessDenied } from '../support/audit.js';
import { calls } from '../support/cast.js';
import {
  assignEntity,
  bearer,
  createBusinessUnit,
  createEnterprise,
  createLegalEntity,
  createUser,
  tokenFor,
} from '../support/factories.js';

describe('admin: entity roles (4.7, D5, D9.4)', async () => {
  // A probe of the principal the resolver hands to routes (cached for a few seconds): /me reads the
  // assignments from the database, so only this shows that a change reaches the cached scope at once.
  const ctx = await createTestContext({
    extendApi: (api) => {
      api.get('/test-probe/principal', async (request) => ({ data: request.principal }));
    },
  });
  const scopeOf = async (token: string) =>
    (await ctx.app.inject({ method: 'GET', url: '/api/v1/test-probe/principal', headers: bearer(token) })).json().data
      .entityAssignments as Array<{ legal_entity_id: string; business_unit_id: string | null }>;
  const superAdmin = await createUser(ctx, { role: 'super_admin' });
  const saToken = await tokenFor(ctx, superAdmin);
  const home = await createEnterprise(ctx);
  const other = await createEnterprise(ctx);
  const admin = await createUser(ctx, { role: 'admin', enterpriseId: home.id });
  const adminToken = await tokenFor(ctx, admin);
  const entity = await createLegalEntity(ctx, home.id, 'Home Entity');
  const unit = await createBusinessUnit(ctx, home.id, entity.id, 'Home Unit');
  const sibling = await createLegalEntity(ctx, home.id, 'Sibling Entity');
  const siblingUnit = await createBusinessUnit(ctx, home.id, sibling.id, 'Sibling Unit');
  const foreignEntity = await createLegalEntity(ctx, other.id, 'Foreign Entity');
  const foreigner = await createUser(ctx, { role: 'assessor', enterpriseId: other.id });
  const assessor = await createUser(ctx, { role: 'assessor', enterpriseId: home.id });
  const reviewer = await createUser(ctx, { role: 'reviewer', enterpriseId: home.id });
  const lowRoles = await withTokens(ctx, [assessor, reviewer]);

  const { call } = calls(ctx);
  const rolesUrl = (userId: string) => `/admin/users/${userId}/entity-roles`;
  const target = () => createUser(ctx, { role: 'assessor', enterpriseId: home.id });
  const auditOf = (userId: string) => auditEntries(ctx, { entityId: userId, action: 'update' });

  describe('POST /admin/users/{user_id}/entity-roles', () => {
    it('assigns a whole legal entity: 201 with the assignment, audited as an update of the user', async () => {
      const user = await target();
      const response = await call(adminToken, 'POST', rolesUrl(user.id), { legal_entity_id: entity.id });
      expect(response.statusCode, response.body).toBe(201);
      const body = response.json();
      expect(body.message).toEqual(expect.any(String));
      expect(body.data).toEqual({
        id: expect.any(String),
        user_id: user.id,
        legal_entity_id: entity.id,
        business_unit_id: null,
        created_at: expect.any(String),
      });
      const entries = await auditOf(user.id);
      expect(entries).toEqual([
        expect.objectContaining({ enterprise_id: home.id, user_id: admin.id, entity_type: 'user', status: 'success' }),
      ]);
      expect(entries[0]!.action_details).toMatchObject({ change: 'entity_role_added', entity_role_id: body.data.id, legal_entity_id: entity.id });
    });

    it('assigns a business unit of the legal entity', async () => {
      const user = await target();
      const response = await call(adminToken, 'POST', rolesUrl(user.id), { legal_entity_id: entity.id, business_unit_id: unit.id });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().data).toMatchObject({ legal_entity_id: entity.id, business_unit_id: unit.id });
    });

    it("changes the user's scope at once: their next request sees the new assignment", async () => {
      const user = await target();
      const token = await tokenFor(ctx, user);
      expect(await scopeOf(token)).toEqual([]);
      await call(adminToken, 'POST', rolesUrl(user.id), { legal_entity_id: sibling.id });
      expect(await scopeOf(token)).toEqual([{ legal_entity_id: sibling.id, business_unit_id: null }]);
    });

    it('lets a super admin assign for any enterprise, recorded in the platform trail', async () => {
      const response = await call(saToken, 'POST', rolesUrl(foreigner.id), { legal_entity_id: foreignEntity.id });
      expect(response.statusCode, response.body).toBe(201);
      expect(await auditOf(foreigner.id)).toEqual([expect.objectContaining({ enterprise_id: null, user_id: superAdmin.id })]);
    });

    it('refuses the same assignment twice with 409 CONFLICT and no audit entry (D2.2)', async () => {
      const user = await target();
      await assignEntity(ctx, user, entity.id);
      await assignEntity(ctx, user, entity.id, unit.id);
      const before = await countAuditEntries(ctx);
      for (const payload of [{ legal_entity_id: entity.id }, { legal_entity_id: entity.id, business_unit_id: unit.id }]) {
        const response = await call(adminToken, 'POST', rolesUrl(user.id), payload);
        expect(response.statusCode, JSON.stringify(payload)).toBe(409);
        expect(response.json().code).toBe('CONFLICT');
      }
      expect(await countAuditEntries(ctx)).toBe(before);
    });

    it('answers 400 INVALID_REFERENCE for a unit of another entity, an entity of another enterprise, or unknown ids (D9.4)', async () => {
      const user = await target();
      const before = await countAuditEntries(ctx);
      const cases = [
        [{ legal_entity_id: entity.id, business_unit_id: siblingUnit.id }, 'business_unit_id'],
        [{ legal_entity_id: entity.id, business_unit_id: randomUUID() }, 'business_unit_id'],
        [{ legal_entity_id: foreignEntity.id }, 'legal_entity_id'],
        [{ legal_entity_id: randomUUID() }, 'legal_entity_id'],
      ] as const;
      for (const [payload, field] of cases) {
        const response = await call(adminToken, 'POST', rolesUrl(user.id), payload);
        expect(response.statusCode, JSON.stringify(payload)).toBe(400);
        expect(response.json()).toMatchObject({ code: 'INVALID_REFERENCE', details: { field } });
      }
      expect(await ctx.db.selectFrom('entity_roles').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
      expect(await countAuditEntries(ctx)).toBe(before);
    });

    it('answers 404 for a user of another enterprise, an unknown user, a super admin or a deactivated user', async () => {
      const gone = await target();
      await ctx.db.updateTable('users').set({ active: false }).where('id', '=', gone.id).execute();
      await ctx.db.updateTable('enterprise_members').set({ active: false }).where('user_id', '=', gone.id).execute();
      for (const userId of [foreigner.id, randomUUID(), superAdmin.id, gone.id]) {
        const response = await call(adminToken, 'POST', rolesUrl(userId), { legal_entity_id: entity.id });
        expect(response.statusCode, userId).toBe(404);
        expect(response.json().code).toBe('NOT_FOUND');
      }
    });

    it.each([
      ['an unknown field', { legal_entity_id: '00000000-0000-4000-8000-000000000000', role: 'x' }, 'role'],
      ['a missing legal_entity_id', { business_unit_id: '00000000-0000-4000-8000-000000000000' }, 'legal_entity_id'],
      ['a malformed legal_entity_id', { legal_entity_id: 'abc' }, 'legal_entity_id'],
      ['a null business_unit_id', { legal_entity_id: '00000000-0000-4000-8000-000000000000', business_unit_id: null }, 'business_unit_id'],
    ])('answers 422 for %s', async (_label, payload, field) => {
      const response = await call(adminToken, 'POST', rolesUrl(assessor.id), payload);
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json().details.fields.map((f: { field: string }) => f.field)).toContain(field);
    });
  });

  describe('GET /admin/users/{user_id}/entity-roles', () => {
    it('lists the assignments with entity and unit names', async () => {
      const user = await target();
      const whole = await assignEntity(ctx, user, sibling.id);
      const part = await assignEntity(ctx, user, entity.id, unit.id);
      const response = await call(adminToken, 'GET', rolesUrl(user.id));
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      expect(Object.keys(body)).toEqual(['data']);
      expect(body.data).toHaveLength(2);
      expect(body.data).toEqual(
        expect.arrayContaining([
          {
            id: whole.id,
            user_id: user.id,
            legal_entity_id: sibling.id,
            business_unit_id: null,
            legal_entity_name: 'Sibling Entity',
            business_unit_name: null,
            created_at: whole.created_at.toISOString(),
          },
          expect.objectContaining({ id: part.id, business_unit_id: unit.id, legal_entity_name: 'Home Entity', business_unit_name: 'Home Unit' }),
        ]),
      );
    });

    it('lets a super admin read any user, and answers 404 to a client admin for a user of another enterprise', async () => {
      expect((await call(saToken, 'GET', rolesUrl(foreigner.id))).statusCode).toBe(200);
      const cross = await call(adminToken, 'GET', rolesUrl(foreigner.id));
      expect(cross.statusCode).toBe(404);
      expect((await call(adminToken, 'GET', rolesUrl(randomUUID()))).statusCode).toBe(404);
    });
  });

  describe('DELETE /admin/users/{user_id}/entity-roles/{role_id}', () => {
    it('removes the assignment, audits it and narrows the scope at once', async () => {
      const user = await target();
      const token = await tokenFor(ctx, user);
      const role = await assignEntity(ctx, user, entity.id);
      expect(await scopeOf(token)).toHaveLength(1);

      const response = await call(adminToken, 'DELETE', `${rolesUrl(user.id)}/${role.id}`);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ message: expect.any(String) });
      expect((await call(adminToken, 'GET', rolesUrl(user.id))).json().data).toEqual([]);
      expect(await scopeOf(token)).toEqual([]);
      const entries = await auditOf(user.id);
      expect(entries).toEqual([expect.objectContaining({ enterprise_id: home.id, user_id: admin.id, entity_type: 'user' })]);
      expect(entries[0]!.action_details).toMatchObject({ change: 'entity_role_removed', entity_role_id: role.id });
    });

    it("answers 404 for an unknown role, another user's role, and across enterprises", async () => {
      const user = await target();
      const otherUser = await target();
      const othersRole = await assignEntity(ctx, otherUser, entity.id);
      const stranger = await createUser(ctx, { role: 'assessor', enterpriseId: other.id });
      const foreignRole = await assignEntity(ctx, stranger, foreignEntity.id);
      const before = await countAuditEntries(ctx);
      for (const url of [
        `${rolesUrl(user.id)}/${randomUUID()}`,
        `${rolesUrl(user.id)}/${othersRole.id}`,
        `${rolesUrl(stranger.id)}/${foreignRole.id}`,
      ]) {
        const response = await call(adminToken, 'DELETE', url);
        expect(response.statusCode, url).toBe(404);
      }
      expect(await countAuditEntries(ctx)).toBe(before);
      expect(await ctx.db.selectFrom('entity_roles').select('id').where('id', 'in', [othersRole.id, foreignRole.id]).execute()).toHaveLength(2);
    });

    it('lets a super admin remove a role in any enterprise', async () => {
      const user = await createUser(ctx, { role: 'reviewer', enterpriseId: other.id });
      const role = await assignEntity(ctx, user, foreignEntity.id);
      expect((await call(saToken, 'DELETE', `${rolesUrl(user.id)}/${role.id}`)).statusCode).toBe(200);
      expect(await auditOf(user.id)).toEqual([expect.objectContaining({ enterprise_id: null })]);
    });
  });

  describe('who may call (D5: super admin, client admin)', () => {
    for (const [role, user, token] of lowRoles) {
      it(`refuses a ${role} on every entity-role endpoint with 403 and access_denied entries`, async () => {
        const subject = await target();
        const existing = await assignEntity(ctx, subject, entity.id);
        const attempts = [
          ['GET', rolesUrl(subject.id), undefined],
          ['POST', rolesUrl(subject.id), { legal_entity_id: sibling.id }],
          ['DELETE', `${rolesUrl(subject.id)}/${existing.id}`, undefined],
          // Even naming another enterprise's user: the role is refused before any lookup.
          ['GET', rolesUrl(foreigner.id), undefined],
        ] as const;
        const deniedCount = async () => (await auditEntries(ctx, { userId: user.id, action: 'access_denied' })).length;
        for (const [method, url, payload] of attempts) {
          const before = await deniedCount();
          const response = await call(token, method, url, payload);
          expect(response.statusCode, `${method} ${url}`).toBe(403);
          await expectAccessDenied(ctx, user, response);
          expect(await deniedCount()).toBe(before + 1);
        }
        const roles = await ctx.db.selectFrom('entity_roles').select('legal_entity_id').where('user_id', '=', subject.id).execute();
        expect(roles).toEqual([{ legal_entity_id: entity.id }]);
      });
    }
  });
});
