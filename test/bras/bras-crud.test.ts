import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { auditEntries, countAuditEntries, expectAccessDenied } from '../support/audit.js';
import { createBra } from '../support/bras-factories.js';
import { bearer, createBusinessUnit, tokenFor } from '../support/factories.js';
import { cast } from '../support/cast.js';

/** POST /bras, GET /bras/{id}, PATCH /bras/{id}: 4.2 rules, D5 roles, D10.1 scopes, D6.7 immutable fields. */
describe('BRAs: create, get, update', async () => {
  const ctx = await createTestContext();
  const w = await cast(ctx);
  const { call } = w;
  const body = (extra: Record<string, unknown> = {}) => ({
    name: `BRA ${randomUUID().slice(0, 8)}`,
    legal_entity_id: w.entity.id,
    period: 'FY2026',
    assessor: 'Marcus Reid',
    ...extra,
  });

  describe('POST /bras', () => {
    it('a client admin creates a draft BRA; the answer has the 4.2 fields; the created snapshot and audit entry commit with it', async () => {
      const payload = body({ description: 'Retail fraud risks', business_unit_id: w.unit.id, start_date: '2026-01-15' });
      const response = await call(w.admin, 'POST', '/bras', payload);
      expect(response.statusCode, response.body).toBe(201);
      const { data, message } = response.json();
      expect(message).toEqual(expect.any(String));
      expect(data).toEqual({
        id: expect.any(String),
        name: payload.name,
        description: 'Retail fraud risks',
        legal_entity_id: w.entity.id,
        business_unit_id: w.unit.id,
        status: 'draft',
        period: 'FY2026',
        assessor: 'Marcus Reid',
        start_date: '2026-01-15',
        created_at: expect.stringMatching(/Z$/),
        updated_at: expect.stringMatching(/Z$/),
      });
      const snapshots = await ctx.db.selectFrom('bra_snapshots').selectAll().where('bra_id', '=', data.id).execute();
      expect(snapshots).toHaveLength(1);
      expect(snapshots[0]).toMatchObject({ kind: 'created', created_by: w.admin.id });
      expect(snapshots[0]!.content).toMatchObject({ id: data.id, status: 'draft', scenarios: [], controls: [], summary: { total_scenarios: 0 } });
      const [entry] = await auditEntries(ctx, { entityId: data.id, action: 'create' });
      expect(entry).toMatchObject({ entity_type: 'bra', user_id: w.admin.id, enterprise_id: w.enterprise.id, status: 'success' });
      expect(entry!.action_details).toMatchObject({ operation: 'bras.create', name: payload.name, snapshot_id: snapshots[0]!.id });
    });

    it('an assessor creates BRAs for an assigned entity; a unit-level assignment allows only BRAs of that unit (4.2 rule 4, D5)', async () => {
      expect((await call(w.assessor, 'POST', '/bras', body())).statusCode).toBe(201);
      const unitBra = await call(w.unitAssessor, 'POST', '/bras', body({ business_unit_id: w.unit.id }));
      expect(unitBra.statusCode, unitBra.body).toBe(201);
      await expectAccessDenied(ctx, w.unitAssessor, await call(w.unitAssessor, 'POST', '/bras', body()), 'bras.create');
      await expectAccessDenied(ctx, w.unitAssessor, await call(w.unitAssessor, 'POST', '/bras', body({ business_unit_id: w.otherUnit.id })));
      await expectAccessDenied(ctx, w.outsideAssessor, await call(w.outsideAssessor, 'POST', '/bras', body()), 'bras.create');
    });

    it('reviewers and super admins are refused with 403 and nothing is written (D5)', async () => {
      const before = await countAuditEntries(ctx, w.enterprise.id);
      const payload = body();
      await expectAccessDenied(ctx, w.reviewer, await call(w.reviewer, 'POST', '/bras', payload), 'bras.create');
      const superAdmin = await call(w.superAdmin, 'POST', '/bras', payload);
      expect(superAdmin.statusCode).toBe(403);
      expect(await ctx.db.selectFrom('bras').select('id').where('name', '=', payload.name).execute()).toEqual([]);
      // Only the reviewer's access_denied entry was added to the enterprise trail.
      expect(await countAuditEntries(ctx, w.enterprise.id)).toBe(before + 1);
    });

    it('the name is unique within the enterprise, case-insensitively (4.2 rule 1) but not across enterprises', async () => {
      const payload = body();
      expect((await call(w.admin, 'POST', '/bras', payload)).statusCode).toBe(201);
      const again = await call(w.admin, 'POST', '/bras', { ...payload, name: payload.name.toUpperCase() });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ code: 'CONFLICT' });
      const elsewhere = await call(w.otherAdmin, 'POST', '/bras', { ...payload, legal_entity_id: w.otherEntity.id });
      expect(elsewhere.statusCode, elsewhere.body).toBe(201);
    });

    it('two concurrent creates of one name: exactly one wins, the other gets 409 (bras_name_key)', async () => {
      const payload = body();
      const responses = await Promise.all([call(w.admin, 'POST', '/bras', payload), call(w.assessor, 'POST', '/bras', payload)]);
      expect(responses.map((r) => r.statusCode).sort()).toEqual([201, 409]);
      expect(await ctx.db.selectFrom('bras').select('id').where('name', '=', payload.name).execute()).toHaveLength(1);
    });

    it('the legal entity must exist in the caller enterprise (4.2 rule 2): 400 INVALID_REFERENCE, never a 403 across tenants', async () => {
      for (const legalEntityId of [randomUUID(), w.otherEntity.id]) {
        const response = await call(w.admin, 'POST', '/bras', body({ legal_entity_id: legalEntityId }));
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({ code: 'INVALID_REFERENCE', details: { field: 'legal_entity_id' } });
      }
    });

    it('the business unit must belong to the legal entity (4.2 rule 3): 400 INVALID_REFERENCE', async () => {
      const foreignUnit = await createBusinessUnit(ctx, w.enterprise.id, w.elsewhere.id);
      for (const businessUnitId of [foreignUnit.id, randomUUID()]) {
        const response = await call(w.admin, 'POST', '/bras', body({ business_unit_id: businessUnitId }));
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({ code: 'INVALID_REFERENCE', details: { field: 'business_unit_id' } });
      }
    });

    it('refuses bodies that break the schema with 422 VALIDATION_ERROR (D2.3)', async () => {
      for (const [payload, field] of [
        [{ ...body(), name: '   ' }, 'name'],
        [{ legal_entity_id: w.entity.id, period: 'FY', assessor: 'A' }, 'name'],
        [{ ...body(), status: 'approved' }, 'status'],
        [{ ...body(), legal_entity_id: 'not-a-uuid' }, 'legal_entity_id'],
        [{ ...body(), start_date: '2026-13-01' }, 'start_date'],
        [{ ...body(), name: 'x'.repeat(201) }, 'name'],
      ] as const) {
        const response = await call(w.admin, 'POST', '/bras', payload);
        expect(response.statusCode, JSON.stringify(payload)).toBe(422);
        expect(response.json().details.fields.map((f: { field: string }) => f.field)).toContain(field);
      }
    });
  });

  describe('GET /bras/{id}', async () => {
    const bra = await createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: w.entity.id, businessUnitId: w.unit.id, createdBy: w.assessor.id });

    it('answers the BRA with legal_entity, business_unit, scenarios, controls and summary (2.1)', async () => {
      const response = await call(w.admin, 'GET', `/bras/${bra.id}`);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().data).toMatchObject({
        id: bra.id,
        name: bra.name,
        status: 'draft',
        legal_entity: { id: w.entity.id, name: w.entity.name },
        business_unit: { id: w.unit.id, name: w.unit.name },
        created_by: w.assessor.id,
        approved_by: null,
        snapshot_id: null,
        scenarios: [],
        controls: [],
        summary: { total_scenarios: 0, assessed_scenarios: 0, risks_above_appetite: 0, completion_percentage: 0 },
      });
    });

    it('assigned assessors and reviewers read it; unassigned ones get 403; a unit assessor reads only BRAs of the unit (D5, D10.1)', async () => {
      for (const user of [w.assessor, w.reviewer, w.unitAssessor]) expect((await call(user, 'GET', `/bras/${bra.id}`)).statusCode).toBe(200);
      const entityBra = await createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: w.entity.id });
      await expectAccessDenied(ctx, w.unitAssessor, await call(w.unitAssessor, 'GET', `/bras/${entityBra.id}`), 'bras.get');
      await expectAccessDenied(ctx, w.outsideReviewer, await call(w.outsideReviewer, 'GET', `/bras/${bra.id}`), 'bras.get');
      await expectAccessDenied(ctx, w.outsideAssessor, await call(w.outsideAssessor, 'GET', `/bras/${bra.id}`));
    });

    it('another enterprise, an unknown id → 404; a malformed id → 400; a super admin → 403', async () => {
      expect((await call(w.otherAdmin, 'GET', `/bras/${bra.id}`)).json()).toMatchObject({ code: 'NOT_FOUND' });
      expect((await call(w.otherAdmin, 'GET', `/bras/${bra.id}`)).statusCode).toBe(404);
      expect((await call(w.admin, 'GET', `/bras/${randomUUID()}`)).statusCode).toBe(404);
      expect((await call(w.admin, 'GET', '/bras/not-a-uuid')).statusCode).toBe(400);
      expect((await call(w.superAdmin, 'GET', `/bras/${bra.id}`)).statusCode).toBe(403);
    });
  });

  describe('PATCH /bras/{id}', async () => {
    const own = (status: 'draft' | 'in_progress' | 'under_review' | 'approved' | 'cancelled' = 'draft') =>
      createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: w.entity.id, createdBy: w.assessor.id, status });

    it('changes name, description, period and assessor; answers the 4.2 fields; audited with the changes', async () => {
      const bra = await own('in_progress');
      const response = await call(w.admin, 'PATCH', `/bras/${bra.id}`, { name: `${bra.name} v2`, description: 'Scope', period: 'H1 2026', assessor: 'Priya' });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().data).toEqual({
        id: bra.id,
        name: `${bra.name} v2`,
        description: 'Scope',
        status: 'in_progress',
        period: 'H1 2026',
        assessor: 'Priya',
        updated_at: expect.stringMatching(/Z$/),
      });
      const [entry] = await auditEntries(ctx, { entityId: bra.id, action: 'update' });
      expect(entry!.action_details).toMatchObject({ operation: 'bras.update', changes: { name: `${bra.name} v2`, period: 'H1 2026' }, previous: { name: bra.name } });
    });

    it('the assessor who created it may change it; another assessor, a reviewer may not (4.2 rule 4, D5)', async () => {
      const bra = await own();
      expect((await call(w.assessor, 'PATCH', `/bras/${bra.id}`, { period: 'Q3' })).statusCode).toBe(200);
      const colleague = await createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: w.entity.id, createdBy: w.admin.id });
      await expectAccessDenied(ctx, w.assessor, await call(w.assessor, 'PATCH', `/bras/${colleague.id}`, { period: 'Q3' }), 'bras.update');
      await expectAccessDenied(ctx, w.reviewer, await call(w.reviewer, 'PATCH', `/bras/${bra.id}`, { period: 'Q3' }), 'bras.update');
    });

    it('the creator loses the right when no longer assigned (D5 "still assigned")', async () => {
      const { createUser, assignEntity } = await import('../support/factories.js');
      const leaving = await createUser(ctx, { role: 'assessor', enterpriseId: w.enterprise.id });
      const role = await assignEntity(ctx, leaving, w.entity.id);
      const bra = await createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: w.entity.id, createdBy: leaving.id });
      await ctx.db.deleteFrom('entity_roles').where('id', '=', role.id).execute();
      const response = await ctx.app.inject({ method: 'PATCH', url: `/api/v1/bras/${bra.id}`, headers: bearer(await tokenFor(ctx, leaving)), payload: { period: 'Q4' } });
      await expectAccessDenied(ctx, leaving, response, 'bras.update');
    });

    it('only draft and in_progress BRAs can be changed: others → 409 INVALID_STATE (4.2 rules 1–2)', async () => {
      for (const status of ['under_review', 'approved', 'cancelled'] as const) {
        const bra = await own(status);
        const response = await call(w.admin, 'PATCH', `/bras/${bra.id}`, { period: 'Q3' });
        expect(response.statusCode, status).toBe(409);
        expect(response.json()).toMatchObject({ code: 'INVALID_STATE' });
      }
    });

    it('legal_entity_id, business_unit_id and status cannot be sent: 422 naming the field (4.2 rule 3, D6.7)', async () => {
      const bra = await own();
      for (const [field, value] of [
        ['legal_entity_id', w.elsewhere.id],
        ['business_unit_id', w.unit.id],
        ['status', 'approved'],
      ] as const) {
        const response = await call(w.admin, 'PATCH', `/bras/${bra.id}`, { [field]: value });
        expect(response.statusCode, field).toBe(422);
        expect(response.json().details.fields).toEqual([{ field, message: expect.any(String) }]);
      }
      expect(await ctx.db.selectFrom('bras').select(['legal_entity_id', 'status']).where('id', '=', bra.id).executeTakeFirst()).toEqual({
        legal_entity_id: w.entity.id,
        status: 'draft',
      });
    });

    it('a name taken in the enterprise → 409; another enterprise → 404', async () => {
      const first = await own();
      const second = await own();
      const clash = await call(w.admin, 'PATCH', `/bras/${second.id}`, { name: first.name.toLowerCase() });
      expect(clash.statusCode).toBe(409);
      expect((await call(w.otherAdmin, 'PATCH', `/bras/${first.id}`, { period: 'Q3' })).statusCode).toBe(404);
    });
  });
});
