import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createRiskScenariosService } from '../../src/modules/risk-scenarios/risk-scenarios.service.js';
import { BASEL_EVENT_TYPES, STARTER_CATALOGUE } from '../../src/modules/risk-scenarios/starter-catalogue.js';
import { sessionHeaders } from '../support/api.js';
import { createTestContext } from '../support/app.js';
import { auditEntries, countAuditEntries, expectAccessDenied } from '../support/audit.js';
import { createEnterprise, createUser, type TestUser } from '../support/factories.js';

const BASEL_CATEGORIES = [
  'Internal fraud',
  'External fraud',
  'Employment practices and workplace safety',
  'Clients, products and business practices',
  'Damage to physical assets',
  'Business disruption and system failures',
  'Execution, delivery and process management',
];

describe('starter catalogue data (D6.3)', () => {
  it('names the seven Basel II event types exactly, each with two or more distinct, described scenarios', () => {
    expect([...BASEL_EVENT_TYPES].sort()).toEqual([...BASEL_CATEGORIES].sort());
    expect(STARTER_CATALOGUE.length).toBeGreaterThanOrEqual(14);
    for (const category of BASEL_CATEGORIES) {
      expect(STARTER_CATALOGUE.filter((s) => s.category === category).length, category).toBeGreaterThanOrEqual(2);
    }
    const names = STARTER_CATALOGUE.map((s) => s.name.toLowerCase());
    expect(new Set(names).size).toBe(names.length);
    for (const s of STARTER_CATALOGUE) {
      expect(s.name.length).toBeLessThanOrEqual(200);
      expect(s.description.trim().length).toBeGreaterThan(0);
    }
  });
});

/** D6.3 the risk-scenario catalogue, D5 who may read and extend it. */
describe('risk scenario catalogue (D6.3, D5)', async () => {
  const ctx = await createTestContext();

  const enterprise = await createEnterprise(ctx);
  const other = await createEnterprise(ctx);
  await ctx.db.transaction().execute((trx) => createRiskScenariosService({ db: trx }).seedStarterCatalogue(enterprise.id));
  await ctx.db.transaction().execute((trx) => createRiskScenariosService({ db: trx }).seedStarterCatalogue(other.id));
  const admin = await createUser(ctx, { role: 'admin', enterpriseId: enterprise.id });
  const assessor = await createUser(ctx, { role: 'assessor', enterpriseId: enterprise.id });
  const reviewer = await createUser(ctx, { role: 'reviewer', enterpriseId: enterprise.id });
  const otherAdmin = await createUser(ctx, { role: 'admin', enterpriseId: other.id });
  const superAdmin = await createUser(ctx, { role: 'super_admin' });

  const headersOf = sessionHeaders(ctx);
  const list = async (user: TestUser, query = '') =>
    ctx.app.inject({ method: 'GET', url: `/api/v1/risk-scenarios${query}`, headers: await headersOf(user) });
  const create = async (user: TestUser, payload: unknown) =>
    ctx.app.inject({ method: 'POST', url: '/api/v1/risk-scenarios', headers: await headersOf(user), payload: payload as object });

  describe('seedStarterCatalogue', () => {
    it('inserts at least 14 scenarios across exactly the seven Basel categories, two or more each', async () => {
      const fresh = await createEnterprise(ctx);
      await ctx.db.transaction().execute((trx) => createRiskScenariosService({ db: trx }).seedStarterCatalogue(fresh.id));
      const rows = await ctx.db.selectFrom('risk_scenarios').selectAll().where('enterprise_id', '=', fresh.id).execute();
      expect(rows.length).toBeGreaterThanOrEqual(14);
      expect([...new Set(rows.map((r) => r.category))].sort()).toEqual([...BASEL_CATEGORIES].sort());
      for (const category of BASEL_CATEGORIES) {
        expect(rows.filter((r) => r.category === category).length, category).toBeGreaterThanOrEqual(2);
      }
      expect(rows.every((r) => r.description !== null && r.description.length > 0)).toBe(true);
    });

    it("runs in the caller's transaction: a rollback leaves no scenario behind", async () => {
      const fresh = await createEnterprise(ctx);
      await expect(
        ctx.db.transaction().execute(async (trx) => {
          await createRiskScenariosService({ db: trx }).seedStarterCatalogue(fresh.id);
          throw new Error('enterprise creation failed later');
        }),
      ).rejects.toThrow('enterprise creation failed later');
      const rows = await ctx.db.selectFrom('risk_scenarios').select('id').where('enterprise_id', '=', fresh.id).execute();
      expect(rows).toHaveLength(0);
    });
  });

  describe('GET /risk-scenarios', () => {
    it.each([
      ['client admin', admin],
      ['assessor without assignments', assessor],
      ['reviewer without assignments', reviewer],
    ])('a %s reads the whole catalogue of its enterprise, paginated', async (_label, user) => {
      const response = await list(user);
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      const total = STARTER_CATALOGUE.length;
      expect(body.pagination).toEqual({
        page: 1,
        page_size: 25,
        total: expect.any(Number),
        total_pages: Math.ceil(body.pagination.total / 25),
        has_next: body.pagination.total > 25,
        has_prev: false,
      });
      expect(body.pagination.total).toBeGreaterThanOrEqual(total);
      expect(body.data[0]).toEqual({
        id: expect.any(String),
        name: expect.any(String),
        category: expect.any(String),
        description: expect.any(String),
        archived_at: null,
        created_at: expect.stringMatching(/Z$/),
      });
    });

    it("never shows another enterprise's scenarios (cross-tenant)", async () => {
      const name = `Only mine ${randomUUID()}`;
      expect((await create(otherAdmin, { name, category: 'Internal fraud' })).statusCode).toBe(201);
      const response = await list(admin, '?page_size=100');
      const names = response.json().data.map((s: { name: string }) => s.name);
      expect(names).not.toContain(name);
      const ids = new Set(response.json().data.map((s: { id: string }) => s.id));
      const foreign = await ctx.db.selectFrom('risk_scenarios').select('id').where('enterprise_id', '=', other.id).execute();
      expect(foreign.length).toBeGreaterThan(0);
      expect(foreign.some((row) => ids.has(row.id))).toBe(false);
    });

    it('filters by exact category', async () => {
      const response = await list(admin, `?category=${encodeURIComponent('Damage to physical assets')}&page_size=100`);
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      const expected = STARTER_CATALOGUE.filter((s) => s.category === 'Damage to physical assets').length;
      expect(body.pagination.total).toBe(expected);
      expect(body.data).toHaveLength(expected);
      expect(body.data.every((s: { category: string }) => s.category === 'Damage to physical assets')).toBe(true);

      const other = await list(admin, `?category=${encodeURIComponent('damage to physical assets')}`);
      expect(other.json().pagination.total).toBe(0);
      expect(other.json().data).toEqual([]);
    });

    it('pages newest first, then by id; totals agree across pages; a page past the end is empty', async () => {
      const paged = await createEnterprise(ctx);
      const pagedAdmin = await createUser(ctx, { role: 'admin', enterpriseId: paged.id });
      const rows = await ctx.db
        .insertInto('risk_scenarios')
        .values(
          Array.from({ length: 7 }, (_, i) => ({
            enterprise_id: paged.id,
            name: `Scenario ${i}`,
            category: 'Paging',
            // Scenario 6 is newest; Scenarios 0 and 1 share a timestamp, so the id breaks the tie.
            created_at: new Date(Date.UTC(2026, 0, 1, 0, Math.max(i, 1))).toISOString(),
          })),
        )
        .returning(['id', 'name', 'created_at'])
        .execute();
      const expected = [...rows]
        .sort((a, b) => b.created_at.getTime() - a.created_at.getTime() || (a.id < b.id ? 1 : -1))
        .map((r) => r.id);

      const seen: string[] = [];
      for (const page of [1, 2, 3]) {
        const response = await list(pagedAdmin, `?page=${page}&page_size=3`);
        expect(response.statusCode, response.body).toBe(200);
        const body = response.json();
        expect(body.pagination).toEqual({
          page,
          page_size: 3,
          total: 7,
          total_pages: 3,
          has_next: page < 3,
          has_prev: page > 1,
        });
        seen.push(...body.data.map((s: { id: string }) => s.id));
      }
      expect(seen).toEqual(expected);

      const past = (await list(pagedAdmin, '?page=9&page_size=3')).json();
      expect(past.data).toEqual([]);
      expect(past.pagination).toMatchObject({ total: 7, total_pages: 3, has_next: false, has_prev: true });

      const clamped = (await list(pagedAdmin, '?page_size=500')).json();
      expect(clamped.pagination.page_size).toBe(100);
    });

    it.each(['?page=0', '?page=abc', '?page_size=0'])('a malformed query (%s) is 400 BAD_REQUEST', async (query) => {
      const response = await list(admin, query);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().code).toBe('BAD_REQUEST');
    });

    it('a super admin is refused with 403 and an access_denied entry', async () => {
      await expectAccessDenied(ctx, superAdmin, await list(superAdmin), 'risk_scenarios.list');
    });
  });

  describe('POST /risk-scenarios', () => {
    it('a client admin adds a scenario: 201, its shape, a create / risk_scenario audit entry, and it is listed first', async () => {
      const response = await create(admin, {
        name: '  Rogue algorithmic trading  ',
        category: 'Internal fraud',
        description: 'A trader deploys an unapproved algorithm.',
      });
      expect(response.statusCode, response.body).toBe(201);
      const body = response.json();
      expect(body.message).toEqual(expect.any(String));
      expect(body.data).toEqual({
        id: expect.any(String),
        name: 'Rogue algorithmic trading',
        category: 'Internal fraud',
        archived_at: null,
        description: 'A trader deploys an unapproved algorithm.',
        created_at: expect.stringMatching(/Z$/),
      });
      const audit = await auditEntries(ctx, { entityId: body.data.id });
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({
        enterprise_id: enterprise.id,
        user_id: admin.id,
        user_name: admin.fullName,
        action_type: 'create',
        entity_type: 'risk_scenario',
        status: 'success',
      });
      expect(audit[0]!.action_details).toMatchObject({
        operation: 'risk_scenarios.create',
        name: 'Rogue algorithmic trading',
        category: 'Internal fraud',
      });
      const first = (await list(admin, '?page_size=1')).json().data[0];
      expect(first.id).toBe(body.data.id);
    });

    it('description is optional (null), and the category may be outside the Basel types', async () => {
      const response = await create(admin, { name: `Climate ${randomUUID()}`, category: 'Climate and environmental' });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().data).toMatchObject({ category: 'Climate and environmental', description: null });
    });

    it('a duplicate name in the enterprise, in any letter case (a seeded one too), is 409 with no audit entry', async () => {
      const seeded = STARTER_CATALOGUE[0]!.name;
      const before = await countAuditEntries(ctx, enterprise.id);
      const response = await create(admin, { name: seeded.toUpperCase(), category: 'Internal fraud' });
      expect(response.statusCode, response.body).toBe(409);
      expect(response.json()).toMatchObject({ code: 'CONFLICT' });
      expect(await countAuditEntries(ctx, enterprise.id)).toBe(before);
    });

    it('the same name in another enterprise is allowed', async () => {
      const name = `Shared scenario ${randomUUID()}`;
      expect((await create(admin, { name, category: 'External fraud' })).statusCode).toBe(201);
      expect((await create(otherAdmin, { name, category: 'External fraud' })).statusCode).toBe(201);
    });

    it.each([
      ['a blank name', { name: '  ', category: 'Internal fraud' }, 'name'],
      ['a missing category', { name: 'No category' }, 'category'],
      ['a blank category', { name: 'Blank category', category: '' }, 'category'],
      ['an unknown field', { name: 'Extra', category: 'Internal fraud', severity: 'high' }, 'severity'],
      ['a name over 200 characters', { name: 's'.repeat(201), category: 'Internal fraud' }, 'name'],
      ['a description over 5,000 characters', { name: 'Long', category: 'Internal fraud', description: 'd'.repeat(5001) }, 'description'],
    ])('%s is 422 VALIDATION_ERROR', async (_label, payload, field) => {
      const response = await create(admin, payload);
      expect(response.statusCode, response.body).toBe(422);
      const body = response.json();
      expect(body.code).toBe('VALIDATION_ERROR');
      expect(JSON.stringify(body.details.fields)).toContain(field);
    });

    it.each([
      ['assessor', assessor],
      ['reviewer', reviewer],
      ['super admin', superAdmin],
    ])('a %s is refused with 403 and an access_denied entry; nothing is created', async (_label, user) => {
      const name = `Denied ${randomUUID()}`;
      await expectAccessDenied(ctx, user, await create(user, { name, category: 'Internal fraud' }), 'risk_scenarios.create');
      const rows = await ctx.db.selectFrom('risk_scenarios').select('id').where('name', '=', name).execute();
      expect(rows).toHaveLength(0);
    });
  });
});
