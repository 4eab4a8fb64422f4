import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { auditEntries, countAuditEntries, expectAccessDenied } from '../support/audit.js';
import { calls } from '../support/cast.js';
import { createEnterprise, createLegalEntity, createUser, tokenFor, type TestUser } from '../support/factories.js';

describe('admin: enterprises (4.7, D9.1, D9.2)', async () => {
  const ctx = await createTestContext();
  const superAdmin = await createUser(ctx, { role: 'super_admin' });
  const saToken = await tokenFor(ctx, superAdmin);
  const home = await createEnterprise(ctx);
  const members: Record<'admin' | 'assessor' | 'reviewer', { user: TestUser; token: string }> = {} as never;
  for (const role of ['admin', 'assessor', 'reviewer'] as const) {
    const user = await createUser(ctx, { role, enterpriseId: home.id });
    members[role] = { user, token: await tokenFor(ctx, user) };
  }

  const { call } = calls(ctx);

  const auditOf = (entityId: string) => auditEntries(ctx, { entityId });
  const rowCount = async (table: 'risk_appetites' | 'risk_appetite_history') =>
    Number((await ctx.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  /** Every page of the list, so that a test can find its own enterprises among the file's others. */
  async function listAll(query = ''): Promise<Array<Record<string, unknown>>> {
    const items: Array<Record<string, unknown>> = [];
    for (let page = 1; ; page++) {
      const response = await call(saToken, 'GET', `/admin/enterprises?page_size=100&page=${page}${query}`);
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      items.push(...body.data);
      if (!body.pagination.has_next) return items;
    }
  }
  const listed = async (id: string) => (await listAll()).find((item) => item['id'] === id);

  describe('POST /admin/enterprises', () => {
    it('creates an active starter enterprise and answers 201 with its fields', async () => {
      const name = `Acme ${randomUUID().slice(0, 8)}`;
      const response = await call(saToken, 'POST', '/admin/enterprises', { name, country: 'GB', registration_number: 'RC-123' });
      expect(response.statusCode, response.body).toBe(201);
      const body = response.json();
      expect(body.message).toEqual(expect.any(String));
      expect(body.data).toEqual({
        id: expect.any(String),
        name,
        country: 'GB',
        registration_number: 'RC-123',
        status: 'active',
        subscription_tier: 'starter',
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/),
      });
    });

    it('registration_number is optional (D9.2) and comes back null', async () => {
      const response = await call(saToken, 'POST', '/admin/enterprises', { name: `NoReg ${randomUUID()}`, country: 'DE' });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().data.registration_number).toBeNull();
    });

    it('creates the default risk appetite (Medium, 9) with its history entry and the starter catalogue (D6.3, D6.9)', async () => {
      const response = await call(saToken, 'POST', '/admin/enterprises', { name: `Seeded ${randomUUID()}`, country: 'FR' });
      expect(response.statusCode, response.body).toBe(201);
      const id = response.json().data.id as string;

      const appetites = await ctx.db.selectFrom('risk_appetites').selectAll().where('enterprise_id', '=', id).execute();
      expect(appetites).toHaveLength(1);
      expect(appetites[0]).toMatchObject({
        legal_entity_id: null,
        business_unit_id: null,
        risk_level: 'Medium',
        threshold_value: 9,
        description: 'Enterprise default',
        updated_by: superAdmin.id,
      });
      const history = await ctx.db.selectFrom('risk_appetite_history').selectAll().where('enterprise_id', '=', id).execute();
      expect(history).toEqual([
        expect.objectContaining({
          risk_appetite_id: appetites[0]!.id,
          previous_level: null,
          previous_threshold: null,
          new_level: 'Medium',
          new_threshold: 9,
          changed_by: superAdmin.id,
          reason: 'Enterprise created',
        }),
      ]);

      const scenarios = await ctx.db.selectFrom('risk_scenarios').select(['name', 'category']).where('enterprise_id', '=', id).execute();
      expect(scenarios.length).toBeGreaterThanOrEqual(14);
      expect(new Set(scenarios.map((s) => s.category)).size).toBe(7);
    });

    it('creates the enterprise, appetite, catalogue and audit entry in one transaction: a late failure leaves none', async () => {
      // A test-only trigger makes the catalogue seeding (the last step before the audit entry) fail.
      await sql`create function refuse_atomic_seed() returns trigger language plpgsql as $$
        begin
          if exists (select 1 from enterprises e where e.id = new.enterprise_id and e.name like 'Atomic %') then
            raise exception 'seeding refused by the test';
          end if;
          return new;
        end $$`.execute(ctx.db);
      await sql`create trigger refuse_atomic_seed before insert on risk_scenarios
        for each row execute function refuse_atomic_seed()`.execute(ctx.db);
      try {
        const auditBefore = await countAuditEntries(ctx);
        const appetitesBefore = await rowCount('risk_appetites');
        const historyBefore = await rowCount('risk_appetite_history');
        const response = await call(saToken, 'POST', '/admin/enterprises', { name: `Atomic ${randomUUID()}`, country: 'GB' });
        expect(response.statusCode).toBe(500);
        expect(await ctx.db.selectFrom('enterprises').select('id').where('name', 'like', 'Atomic %').execute()).toEqual([]);
        expect(await countAuditEntries(ctx)).toBe(auditBefore);
        expect(await rowCount('risk_appetites')).toBe(appetitesBefore);
        expect(await rowCount('risk_appetite_history')).toBe(historyBefore);
      } finally {
        await sql`drop trigger refuse_atomic_seed on risk_scenarios`.execute(ctx.db);
        await sql`drop function refuse_atomic_seed()`.execute(ctx.db);
      }
    });

    it('records a create entry in the platform trail (D10.3)', async () => {
      const response = await call(saToken, 'POST', '/admin/enterprises', { name: `Audited ${randomUUID()}`, country: 'NL' });
      const id = response.json().data.id as string;
      const entries = await auditOf(id);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({
        enterprise_id: null,
        user_id: superAdmin.id,
        user_email: superAdmin.email,
        user_name: superAdmin.fullName,
        action_type: 'create',
        entity_type: 'enterprise',
        status: 'success',
      });
      expect(entries[0]!.action_details).toMatchObject({ name: expect.stringMatching(/^Audited /), country: 'NL' });
    });

    it('refuses a name already taken, case-insensitively, with 409 CONFLICT and writes nothing (D9.2, D7.5)', async () => {
      const name = `Unique Name ${randomUUID().slice(0, 8)}`;
      expect((await call(saToken, 'POST', '/admin/enterprises', { name, country: 'GB' })).statusCode).toBe(201);
      const enterprisesBefore = await ctx.db.selectFrom('enterprises').select('id').execute();
      const auditBefore = await countAuditEntries(ctx);

      const response = await call(saToken, 'POST', '/admin/enterprises', { name: name.toUpperCase(), country: 'US' });
      expect(response.statusCode, response.body).toBe(409);
      expect(response.json()).toMatchObject({ code: 'CONFLICT', request_id: expect.any(String) });
      expect(await ctx.db.selectFrom('enterprises').select('id').execute()).toHaveLength(enterprisesBefore.length);
      expect(await countAuditEntries(ctx)).toBe(auditBefore);
    });

    it.each([
      ['an unknown field', { name: 'X Corp', country: 'GB', tier: 'enterprise' }, 'tier'],
      ['a user-assigned country code', { name: 'X Corp', country: 'XX' }, 'country'],
      ['a lower-case country code', { name: 'X Corp', country: 'gb' }, 'country'],
      ['a reserved, unassigned code', { name: 'X Corp', country: 'UK' }, 'country'],
      ['a three-letter code', { name: 'X Corp', country: 'GBR' }, 'country'],
      ['a missing name', { country: 'GB' }, 'name'],
      ['a blank name', { name: '   ', country: 'GB' }, 'name'],
      ['a missing country', { name: 'X Corp' }, 'country'],
      ['a name over 200 characters', { name: 'n'.repeat(201), country: 'GB' }, 'name'],
      ['a non-string registration number', { name: 'X Corp', country: 'GB', registration_number: 42 }, 'registration_number'],
    ])('answers 422 VALIDATION_ERROR for %s', async (_label, payload, field) => {
      const response = await call(saToken, 'POST', '/admin/enterprises', payload);
      expect(response.statusCode, response.body).toBe(422);
      const body = response.json();
      expect(body.code).toBe('VALIDATION_ERROR');
      expect(body.details.fields.map((f: { field: string }) => f.field)).toContain(field);
    });

    it('accepts any assigned code, such as Åland (AX) and South Sudan (SS)', async () => {
      for (const country of ['AX', 'SS']) {
        const response = await call(saToken, 'POST', '/admin/enterprises', { name: `Cc ${country} ${randomUUID()}`, country });
        expect(response.statusCode, response.body).toBe(201);
      }
    });
  });

  describe('PATCH /admin/enterprises/{enterprise_id}', () => {
    it('changes status and tier, answers id/status/subscription_tier/updated_at and audits before and after', async () => {
      const target = await createEnterprise(ctx);
      const response = await call(saToken, 'PATCH', `/admin/enterprises/${target.id}`, {
        status: 'inactive',
        subscription_tier: 'professional',
      });
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      expect(body.message).toEqual(expect.any(String));
      expect(body.data).toEqual({ id: target.id, status: 'inactive', subscription_tier: 'professional', updated_at: expect.any(String) });
      expect(new Date(body.data.updated_at).getTime()).toBeGreaterThanOrEqual(target.updated_at.getTime());

      const entries = await auditOf(target.id);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ enterprise_id: null, action_type: 'update', entity_type: 'enterprise', user_id: superAdmin.id });
      expect(entries[0]!.action_details).toMatchObject({
        before: { status: 'active', subscription_tier: 'starter' },
        after: { status: 'inactive', subscription_tier: 'professional' },
      });
    });

    it('changes one field and keeps the other', async () => {
      const target = await createEnterprise(ctx);
      const response = await call(saToken, 'PATCH', `/admin/enterprises/${target.id}`, { subscription_tier: 'enterprise' });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().data).toMatchObject({ status: 'active', subscription_tier: 'enterprise' });
    });

    it('answers 404 for an unknown enterprise, and 400 for a malformed id', async () => {
      const unknown = await call(saToken, 'PATCH', `/admin/enterprises/${randomUUID()}`, { status: 'inactive' });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().code).toBe('NOT_FOUND');
      const malformed = await call(saToken, 'PATCH', '/admin/enterprises/not-a-uuid', { status: 'inactive' });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json().code).toBe('BAD_REQUEST');
    });

    it.each([
      ['an empty body', {}],
      ['an unknown field', { status: 'inactive', name: 'Renamed' }],
      ['an unknown status', { status: 'suspended' }],
      ['an unknown tier', { subscription_tier: 'gold' }],
    ])('answers 422 for %s and changes nothing', async (_label, payload) => {
      const target = await createEnterprise(ctx);
      const response = await call(saToken, 'PATCH', `/admin/enterprises/${target.id}`, payload);
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json().code).toBe('VALIDATION_ERROR');
      expect(await auditOf(target.id)).toHaveLength(0);
    });
  });

  describe('GET /admin/enterprises', () => {
    it('pages newest first with the totals of D2.5', async () => {
      for (let i = 0; i < 3; i++) await createEnterprise(ctx);
      const expected = await ctx.db.selectFrom('enterprises').select('id').orderBy('created_at', 'desc').orderBy('id', 'desc').execute();

      const first = await call(saToken, 'GET', '/admin/enterprises?page=1&page_size=2');
      expect(first.statusCode, first.body).toBe(200);
      const body = first.json();
      expect(body.data.map((e: { id: string }) => e.id)).toEqual(expected.slice(0, 2).map((e) => e.id));
      expect(body.pagination).toEqual({
        page: 1,
        page_size: 2,
        total: expected.length,
        total_pages: Math.ceil(expected.length / 2),
        has_next: true,
        has_prev: false,
      });

      const second = (await call(saToken, 'GET', '/admin/enterprises?page=2&page_size=2')).json();
      expect(second.data.map((e: { id: string }) => e.id)).toEqual(expected.slice(2, 4).map((e) => e.id));
      expect(second.pagination.has_prev).toBe(true);

      const past = (await call(saToken, 'GET', `/admin/enterprises?page=${expected.length + 1}&page_size=2`)).json();
      expect(past.data).toEqual([]);
      expect(past.pagination.total).toBe(expected.length);

      const clamped = (await call(saToken, 'GET', '/admin/enterprises?page_size=500')).json();
      expect(clamped.pagination.page_size).toBe(100);
    });

    it('filters by status', async () => {
      const inactive = await createEnterprise(ctx, { status: 'inactive' });
      const active = await createEnterprise(ctx);
      const onlyInactive = await listAll('&status=inactive');
      expect(onlyInactive.every((e) => e['status'] === 'inactive')).toBe(true);
      expect(onlyInactive.map((e) => e['id'])).toContain(inactive.id);
      expect(onlyInactive.map((e) => e['id'])).not.toContain(active.id);
      const total = Number(
        (await ctx.db.selectFrom('enterprises').select((eb) => eb.fn.countAll().as('n')).where('status', '=', 'inactive').executeTakeFirstOrThrow()).n,
      );
      const page = (await call(saToken, 'GET', '/admin/enterprises?status=inactive&page_size=1')).json();
      expect(page.pagination.total).toBe(total);
    });

    it('refuses malformed query parameters with 400 (D2.2)', async () => {
      for (const query of ['status=deleted', 'page=0', 'page=abc', 'page_size=0']) {
        const response = await call(saToken, 'GET', `/admin/enterprises?${query}`);
        expect(response.statusCode, query).toBe(400);
        expect(response.json().code).toBe('BAD_REQUEST');
      }
    });

    it('answers every field, with mrr_cents following the tier and 0 while inactive (D9.1)', async () => {
      const prices = ctx.config.tierPricesCents;
      const cases = [
        ['starter', 'active', prices.starter],
        ['professional', 'active', 49_900],
        ['enterprise', 'active', 249_900],
        ['enterprise', 'inactive', 0],
        ['professional', 'inactive', 0],
      ] as const;
      for (const [tier, status, mrr] of cases) {
        const enterprise = await createEnterprise(ctx, { status });
        await ctx.db.updateTable('enterprises').set({ subscription_tier: tier }).where('id', '=', enterprise.id).execute();
        const item = await listed(enterprise.id);
        expect(item, `${tier}/${status}`).toEqual({
          id: enterprise.id,
          name: enterprise.name,
          country: 'GB',
          registration_number: null,
          status,
          subscription_tier: tier,
          mrr_cents: mrr,
          user_count: 0,
          bra_count: 0,
          // Nothing overdue, above appetite, late, untested or refused: full health.
          health_score: 100,
          health_status: 'healthy',
          created_at: enterprise.created_at.toISOString(),
          updated_at: expect.any(String),
          abilities: { update: true, change_tier: true },
        });
      }
    });

    it('user_count counts active members only; bra_count every BRA except cancelled ones (D9.1)', async () => {
      const enterprise = await createEnterprise(ctx);
      await createUser(ctx, { role: 'admin', enterpriseId: enterprise.id });
      await createUser(ctx, { role: 'assessor', enterpriseId: enterprise.id });
      const leaving = await createUser(ctx, { role: 'reviewer', enterpriseId: enterprise.id });
      await ctx.db.updateTable('enterprise_members').set({ active: false, deactivated_at: new Date() }).where('user_id', '=', leaving.id).execute();
      await ctx.db.updateTable('users').set({ active: false, deactivated_at: new Date() }).where('id', '=', leaving.id).execute();
      // Another enterprise's members and BRAs never count here.
      const other = await createEnterprise(ctx);
      await createUser(ctx, { role: 'admin', enterpriseId: other.id });

      const entity = await createLegalEntity(ctx, enterprise.id);
      const statuses = ['draft', 'in_progress', 'under_review', 'approved', 'cancelled', 'cancelled'] as const;
      await ctx.db
        .insertInto('bras')
        .values(
          statuses.map((status, i) => ({
            enterprise_id: enterprise.id,
            name: `BRA ${i}`,
            legal_entity_id: entity.id,
            period: '2026',
            assessor: 'Someone',
            status,
          })),
        )
        .execute();

      const item = await listed(enterprise.id);
      expect(item).toMatchObject({ user_count: 2, bra_count: 4 });
      expect(await listed(other.id)).toMatchObject({ user_count: 1, bra_count: 0 });
    });
  });

  describe('who may call (D5: super admin only)', () => {
    const attempts = [
      ['GET', '/admin/enterprises', undefined],
      ['POST', '/admin/enterprises', { name: 'Not Allowed', country: 'GB' }],
      ['PATCH', `/admin/enterprises/${home.id}`, { status: 'inactive' }],
    ] as const;

    for (const role of ['admin', 'assessor', 'reviewer'] as const) {
      it.each(attempts)(`refuses a ${role} with 403 and an access_denied entry: %s %s`, async (method, url, payload) => {
        const { user, token } = members[role];
        const denied = await expectAccessDenied(ctx, user, await call(token, method, url, payload));
        expect(denied.action_details).toMatchObject({ method, path: `/api/v1${url}` });
      });
    }

    it('the refused calls changed nothing', async () => {
      const row = await ctx.db.selectFrom('enterprises').select('status').where('id', '=', home.id).executeTakeFirstOrThrow();
      expect(row.status).toBe('active');
      expect(await ctx.db.selectFrom('enterprises').select('id').where('name', '=', 'Not Allowed').execute()).toHaveLength(0);
    });

    it('answers 401 without a token', async () => {
      const response = await ctx.app.inject({ method: 'GET', url: '/api/v1/admin/enterprises' });
      expect(response.statusCode).toBe(401);
    });
  });
});
