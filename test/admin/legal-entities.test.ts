import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sessionHeaders } from '../support/api.js';
import { createTestContext } from '../support/app.js';
import { auditEntries, countAuditEntries, expectAccessDenied } from '../support/audit.js';
import {
  assignEntity,
  createBusinessUnit,
  createEnterprise,
  createLegalEntity,
  createUser,
  type TestUser,
} from '../support/factories.js';

/** D6.2 legal entities and business units, D5 who may see and change them. */
describe('legal entities and business units (D6.2, D5)', async () => {
  const ctx = await createTestContext();

  const enterprise = await createEnterprise(ctx);
  const other = await createEnterprise(ctx);
  const admin = await createUser(ctx, { role: 'admin', enterpriseId: enterprise.id });
  const otherAdmin = await createUser(ctx, { role: 'admin', enterpriseId: other.id });
  const superAdmin = await createUser(ctx, { role: 'super_admin' });

  const headersOf = sessionHeaders(ctx);
  const list = async (user: TestUser) =>
    ctx.app.inject({ method: 'GET', url: '/api/v1/legal-entities', headers: await headersOf(user) });
  const createEntity = async (user: TestUser, payload: unknown) =>
    ctx.app.inject({ method: 'POST', url: '/api/v1/admin/legal-entities', headers: await headersOf(user), payload: payload as object });
  const createUnit = async (user: TestUser, entityId: string, payload: unknown) =>
    ctx.app.inject({
      method: 'POST',
      url: `/api/v1/admin/legal-entities/${entityId}/business-units`,
      headers: await headersOf(user),
      payload: payload as object,
    });

  describe('GET /legal-entities', async () => {
    // A dedicated enterprise so that the list's exact contents can be asserted.
    const listed = await createEnterprise(ctx);
    const listAdmin = await createUser(ctx, { role: 'admin', enterpriseId: listed.id });
    const alpha = await createLegalEntity(ctx, listed.id, 'Alpha Bank plc');
    const beta = await createLegalEntity(ctx, listed.id, 'Beta Insurance Ltd');
    const gamma = await createLegalEntity(ctx, listed.id, 'Gamma Leasing SA');
    const alphaRetail = await createBusinessUnit(ctx, listed.id, alpha.id, 'Retail');
    const alphaTreasury = await createBusinessUnit(ctx, listed.id, alpha.id, 'Treasury');
    const betaLife = await createBusinessUnit(ctx, listed.id, beta.id, 'Life');
    const betaMotor = await createBusinessUnit(ctx, listed.id, beta.id, 'Motor');
    // Distinct, known creation times: alpha oldest, gamma newest; units likewise in creation order.
    const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 0, minutes)).toISOString();
    for (const [table, id, minutes] of [
      ['legal_entities', alpha.id, 1],
      ['legal_entities', beta.id, 2],
      ['legal_entities', gamma.id, 3],
      ['business_units', alphaRetail.id, 4],
      ['business_units', alphaTreasury.id, 5],
      ['business_units', betaLife.id, 6],
      ['business_units', betaMotor.id, 7],
    ] as const) {
      await ctx.db.updateTable(table).set({ created_at: at(minutes) } as never).where('id', '=', id).execute();
    }
    await createLegalEntity(ctx, other.id, 'Foreign Entity');

    it('a client admin sees every entity of its enterprise, newest first, with all units aggregated', async () => {
      const response = await list(listAdmin);
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      expect(Object.keys(body)).toEqual(['data']);
      expect(body.data).toEqual([
        { id: gamma.id, name: 'Gamma Leasing SA', description: null, created_at: at(3), archived_at: null, business_units: [] },
        {
          id: beta.id,
          name: 'Beta Insurance Ltd',
          description: null,
          created_at: at(2),
          archived_at: null,
          business_units: [
            { id: betaMotor.id, name: 'Motor', description: null, archived_at: null },
            { id: betaLife.id, name: 'Life', description: null, archived_at: null },
          ],
        },
        {
          id: alpha.id,
          name: 'Alpha Bank plc',
          description: null,
          created_at: at(1),
          archived_at: null,
          business_units: [
            { id: alphaTreasury.id, name: 'Treasury', description: null, archived_at: null },
            { id: alphaRetail.id, name: 'Retail', description: null, archived_at: null },
          ],
        },
      ]);
    });

    it("never shows another enterprise's entities (cross-tenant)", async () => {
      const response = await list(otherAdmin);
      expect(response.statusCode).toBe(200);
      const ids = response.json().data.map((e: { id: string }) => e.id);
      expect(ids).not.toContain(alpha.id);
      expect(ids).not.toContain(beta.id);
      expect(response.json().data.map((e: { name: string }) => e.name)).toContain('Foreign Entity');
    });

    it('an assessor sees only assigned entities; a whole-entity role shows every unit (D5 "assigned")', async () => {
      const assessor = await createUser(ctx, { role: 'assessor', enterpriseId: listed.id });
      await assignEntity(ctx, assessor, alpha.id);
      const response = await list(assessor);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().data).toEqual([
        expect.objectContaining({
          id: alpha.id,
          business_units: [
            { id: alphaTreasury.id, name: 'Treasury', description: null, archived_at: null },
            { id: alphaRetail.id, name: 'Retail', description: null, archived_at: null },
          ],
        }),
      ]);
    });

    it('a reviewer assigned to one unit sees its entity with only that unit', async () => {
      const reviewer = await createUser(ctx, { role: 'reviewer', enterpriseId: listed.id });
      await assignEntity(ctx, reviewer, beta.id, betaLife.id);
      await assignEntity(ctx, reviewer, alpha.id);
      const response = await list(reviewer);
      expect(response.statusCode, response.body).toBe(200);
      const data = response.json().data;
      expect(data.map((e: { id: string }) => e.id)).toEqual([beta.id, alpha.id]);
      expect(data[0].business_units).toEqual([{ id: betaLife.id, name: 'Life', description: null, archived_at: null }]);
      expect(data[1].business_units).toHaveLength(2);
    });

    it('an assessor without assignments sees an empty list', async () => {
      const assessor = await createUser(ctx, { role: 'assessor', enterpriseId: listed.id });
      const response = await list(assessor);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ data: [] });
    });

    it('a super admin is refused with 403 and an access_denied entry (D5)', async () => {
      await expectAccessDenied(ctx, superAdmin, await list(superAdmin), 'legal_entities.list');
    });
  });

  describe('POST /admin/legal-entities', () => {
    it('a client admin creates an entity: 201, its shape, and a create / legal_entity audit entry', async () => {
      const response = await createEntity(admin, { name: '  Northwind Capital  ', description: 'Broker-dealer' });
      expect(response.statusCode, response.body).toBe(201);
      const body = response.json();
      expect(body.message).toEqual(expect.any(String));
      expect(body.data).toEqual({
        id: expect.any(String),
        name: 'Northwind Capital',
        description: 'Broker-dealer',
        archived_at: null,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
      });
      const row = await ctx.db.selectFrom('legal_entities').selectAll().where('id', '=', body.data.id).executeTakeFirstOrThrow();
      expect(row.enterprise_id).toBe(enterprise.id);
      const audit = await auditEntries(ctx, { entityId: body.data.id });
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({
        enterprise_id: enterprise.id,
        user_id: admin.id,
        user_name: admin.fullName,
        action_type: 'create',
        entity_type: 'legal_entity',
        status: 'success',
      });
      expect(audit[0]!.action_details).toMatchObject({ operation: 'legal_entities.create', name: 'Northwind Capital' });
    });

    it('description is optional and null when absent', async () => {
      const response = await createEntity(admin, { name: `Entity ${randomUUID()}` });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().data.description).toBeNull();
    });

    it('a duplicate name in the enterprise, in any letter case, is 409 CONFLICT and writes no audit entry', async () => {
      const name = `Contoso Bank ${randomUUID().slice(0, 6)}`;
      expect((await createEntity(admin, { name })).statusCode).toBe(201);
      const before = await countAuditEntries(ctx, enterprise.id);
      const response = await createEntity(admin, { name: name.toUpperCase() });
      expect(response.statusCode, response.body).toBe(409);
      expect(response.json()).toMatchObject({ code: 'CONFLICT' });
      expect(await countAuditEntries(ctx, enterprise.id)).toBe(before);
      const rows = await ctx.db
        .selectFrom('legal_entities')
        .select('id')
        .where('enterprise_id', '=', enterprise.id)
        .where((eb) => eb(eb.fn('lower', ['name']), '=', name.toLowerCase()))
        .execute();
      expect(rows).toHaveLength(1);
    });

    it('the same name in another enterprise is allowed (uniqueness is per enterprise)', async () => {
      const name = `Shared Name ${randomUUID().slice(0, 6)}`;
      expect((await createEntity(admin, { name })).statusCode).toBe(201);
      expect((await createEntity(otherAdmin, { name })).statusCode).toBe(201);
    });

    it.each([
      ['a blank name', { name: '   ' }, 'name'],
      ['a missing name', { description: 'x' }, 'name'],
      ['an unknown field', { name: 'Valid', enterprise_id: randomUUID() }, 'enterprise_id'],
      ['a name over 200 characters', { name: 'n'.repeat(201) }, 'name'],
      ['a description over 5,000 characters', { name: 'Valid', description: 'd'.repeat(5001) }, 'description'],
      ['a non-string name', { name: 42 }, 'name'],
    ])('%s is 422 VALIDATION_ERROR (D2.3)', async (_label, payload, field) => {
      const response = await createEntity(admin, payload);
      expect(response.statusCode, response.body).toBe(422);
      const body = response.json();
      expect(body.code).toBe('VALIDATION_ERROR');
      expect(JSON.stringify(body.details.fields)).toContain(field);
    });

    it('a name of exactly 200 characters is accepted', async () => {
      const response = await createEntity(admin, { name: `${randomUUID()}`.padEnd(200, 'x') });
      expect(response.statusCode, response.body).toBe(201);
    });

    it.each(['assessor', 'reviewer'] as const)('a %s is refused with 403 and an access_denied entry', async (role) => {
      const user = await createUser(ctx, { role, enterpriseId: enterprise.id });
      const response = await createEntity(user, { name: `Denied ${randomUUID()}` });
      await expectAccessDenied(ctx, user, response, 'legal_entities.create');
    });

    it('a super admin is refused with 403: the body names no enterprise to create the entity in', async () => {
      const response = await createEntity(superAdmin, { name: `Platform ${randomUUID()}` });
      await expectAccessDenied(ctx, superAdmin, response, 'legal_entities.create');
      expect(response.json().error).toMatch(/super admin/i);
    });
  });

  describe('POST /admin/legal-entities/{id}/business-units', async () => {
    const entity = await createLegalEntity(ctx, enterprise.id);
    const foreignEntity = await createLegalEntity(ctx, other.id);

    it('a client admin creates a unit: 201, its shape, a create / business_unit audit entry naming its legal entity, and it is listed', async () => {
      const response = await createUnit(admin, entity.id, { name: ' Corporate Banking ' });
      expect(response.statusCode, response.body).toBe(201);
      const unit = response.json().data;
      expect(unit).toEqual({
        id: expect.any(String),
        legal_entity_id: entity.id,
        name: 'Corporate Banking',
        description: null,
        created_at: expect.stringMatching(/Z$/),
        archived_at: null,
      });
      expect(await auditEntries(ctx, { entityId: entity.id })).toHaveLength(0);
      const audit = await auditEntries(ctx, { entityId: unit.id });
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({
        enterprise_id: enterprise.id,
        user_id: admin.id,
        action_type: 'create',
        entity_type: 'business_unit',
        status: 'success',
      });
      expect(audit[0]!.action_details).toMatchObject({
        operation: 'business_units.create',
        legal_entity_id: entity.id,
        name: 'Corporate Banking',
      });
      const listed = (await list(admin)).json().data.find((e: { id: string }) => e.id === entity.id);
      expect(listed.business_units).toContainEqual({ id: unit.id, name: 'Corporate Banking', description: null, archived_at: null });
    });

    it('a duplicate name within the entity, in any letter case, is 409 and writes no audit entry', async () => {
      expect((await createUnit(admin, entity.id, { name: 'Payments' })).statusCode).toBe(201);
      const before = await countAuditEntries(ctx, enterprise.id);
      const response = await createUnit(admin, entity.id, { name: 'PAYMENTS' });
      expect(response.statusCode, response.body).toBe(409);
      expect(response.json()).toMatchObject({ code: 'CONFLICT' });
      expect(await countAuditEntries(ctx, enterprise.id)).toBe(before);
    });

    it('the same unit name in another legal entity is allowed', async () => {
      const second = await createLegalEntity(ctx, enterprise.id);
      expect((await createUnit(admin, entity.id, { name: 'Operations' })).statusCode).toBe(201);
      expect((await createUnit(admin, second.id, { name: 'Operations' })).statusCode).toBe(201);
    });

    it("another enterprise's legal entity is 404 and nothing is created (cross-tenant)", async () => {
      const before = await countAuditEntries(ctx, other.id);
      const response = await createUnit(admin, foreignEntity.id, { name: 'Intruder' });
      expect(response.statusCode, response.body).toBe(404);
      expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
      const units = await ctx.db.selectFrom('business_units').select('id').where('legal_entity_id', '=', foreignEntity.id).execute();
      expect(units).toHaveLength(0);
      expect(await countAuditEntries(ctx, other.id)).toBe(before);
    });

    it('an unknown legal entity is 404; a malformed id is 400', async () => {
      expect((await createUnit(admin, randomUUID(), { name: 'Nowhere' })).statusCode).toBe(404);
      const malformed = await createUnit(admin, 'not-a-uuid', { name: 'Nowhere' });
      expect(malformed.statusCode, malformed.body).toBe(400);
      expect(malformed.json().code).toBe('BAD_REQUEST');
    });

    it.each([
      ['a blank name', { name: '' }],
      ['an unknown field', { name: 'Valid', legal_entity_id: randomUUID() }],
      ['a name over 200 characters', { name: 'u'.repeat(201) }],
    ])('%s is 422 VALIDATION_ERROR', async (_label, payload) => {
      const response = await createUnit(admin, entity.id, payload);
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json().code).toBe('VALIDATION_ERROR');
    });

    it.each(['assessor', 'reviewer'] as const)('a %s, even one assigned to the entity, is refused with 403', async (role) => {
      const user = await createUser(ctx, { role, enterpriseId: enterprise.id });
      await assignEntity(ctx, user, entity.id);
      const response = await createUnit(user, entity.id, { name: `Denied ${randomUUID()}` });
      await expectAccessDenied(ctx, user, response, 'business_units.create');
    });

    it('a super admin is refused with 403', async () => {
      await expectAccessDenied(ctx, superAdmin, await createUnit(superAdmin, entity.id, { name: 'Platform unit' }), 'business_units.create');
    });
  });
});
