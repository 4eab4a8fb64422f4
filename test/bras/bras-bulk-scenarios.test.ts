import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { auditEntries, countAuditEntries, expectAccessDenied } from '../support/audit.js';
import { addScenarioLink, createBra, createRiskScenario } from '../support/bras-factories.js';
import { cast } from '../support/cast.js';

/** POST /bras/{id}/scenarios/bulk (issue 35): the single add's rules for all of them, all or none. */
describe('adding many scenarios to a BRA', async () => {
  const ctx = await createTestContext();
  const w = await cast(ctx);
  const { call } = w;
  const newBra = (status: 'draft' | 'in_progress' | 'under_review' | 'approved' = 'draft') =>
    createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: w.entity.id, createdBy: w.assessor.id, status });
  const scenarios = async (n: number) => Promise.all(Array.from({ length: n }, () => createRiskScenario(ctx, w.enterprise.id)));
  const linksOf = async (braId: string) => ctx.db.selectFrom('bra_risk_scenarios').select('risk_scenario_id').where('bra_id', '=', braId).execute();

  it('adds every scenario in the order asked, one audit entry each, and moves a draft to in_progress once', async () => {
    const bra = await newBra();
    const [a, b, c] = await scenarios(3);
    const response = await call(w.assessor, 'POST', `/bras/${bra.id}/scenarios/bulk`, { risk_scenario_ids: [c!.id, a!.id, b!.id], included: false });
    expect(response.statusCode, response.body).toBe(201);
    const data = response.json().data;
    expect(data.map((s: { risk_scenario_id: string }) => s.risk_scenario_id)).toEqual([c!.id, a!.id, b!.id]);
    expect(data[0]).toEqual({ id: expect.any(String), risk_scenario_id: c!.id, name: c!.name, category: c!.category, included: false, inherent_rating: null, residual_rating: null, previous_residual_rating: null });
    const entries = await auditEntries(ctx, { entityId: bra.id, entityType: 'bra', action: 'update' });
    const added = entries.filter((e) => e.action_details['change'] === 'scenario_added');
    expect(added.map((e) => e.action_details['risk_scenario_id'])).toEqual([c!.id, a!.id, b!.id]);
    expect(added.every((e) => e.action_details['operation'] === 'bras.scenario.bulk_add' && e.user_id === w.assessor.id)).toBe(true);
    expect(entries.filter((e) => e.action_details['status'] !== undefined)).toHaveLength(1);
    expect((await ctx.db.selectFrom('bras').select('status').where('id', '=', bra.id).executeTakeFirstOrThrow()).status).toBe('in_progress');
  });

  it('one unknown, foreign or archived id → 400 INVALID_REFERENCE naming it, and nothing is added or audited', async () => {
    const bra = await newBra('in_progress');
    const good = await scenarios(2);
    const foreign = await createRiskScenario(ctx, w.other.id);
    const archived = await createRiskScenario(ctx, w.enterprise.id);
    await ctx.db.updateTable('risk_scenarios').set({ archived_at: new Date() }).where('id', '=', archived.id).execute();
    for (const bad of [randomUUID(), foreign.id, archived.id]) {
      const count = await countAuditEntries(ctx, w.enterprise.id);
      const response = await call(w.admin, 'POST', `/bras/${bra.id}/scenarios/bulk`, { risk_scenario_ids: [good[0]!.id, bad, good[1]!.id] });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ code: 'INVALID_REFERENCE', details: { field: 'risk_scenario_ids', risk_scenario_ids: [bad] } });
      expect(await linksOf(bra.id)).toEqual([]);
      expect(await countAuditEntries(ctx, w.enterprise.id)).toBe(count);
    }
  });

  it('a scenario already in the BRA → 409 CONFLICT naming it, nothing added', async () => {
    const bra = await newBra('in_progress');
    const existing = await addScenarioLink(ctx, bra);
    const [fresh] = await scenarios(1);
    const response = await call(w.admin, 'POST', `/bras/${bra.id}/scenarios/bulk`, { risk_scenario_ids: [fresh!.id, existing.risk_scenario_id] });
    expect(response.statusCode, response.body).toBe(409);
    expect(response.json()).toMatchObject({ code: 'CONFLICT', details: { risk_scenario_ids: [existing.risk_scenario_id] } });
    expect(await linksOf(bra.id)).toEqual([{ risk_scenario_id: existing.risk_scenario_id }]);
  });

  it('no ids, more than 100, a repeated id or an undeclared member → 422', async () => {
    const bra = await newBra('in_progress');
    const [s] = await scenarios(1);
    const many = Array.from({ length: 101 }, () => randomUUID());
    for (const payload of [{ risk_scenario_ids: [] }, { risk_scenario_ids: many }, { risk_scenario_ids: [s!.id, s!.id] }, { risk_scenario_ids: [s!.id], extra: 1 }, {}]) {
      expect((await call(w.admin, 'POST', `/bras/${bra.id}/scenarios/bulk`, payload)).statusCode).toBe(422);
    }
    expect(await linksOf(bra.id)).toEqual([]);
  });

  it('100 at once', async () => {
    const bra = await newBra('in_progress');
    const hundred = await scenarios(100);
    const response = await call(w.admin, 'POST', `/bras/${bra.id}/scenarios/bulk`, { risk_scenario_ids: hundred.map((s) => s.id) });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().data).toHaveLength(100);
    expect(await linksOf(bra.id)).toHaveLength(100);
  });

  it('the single add\'s rules: not editable → 409; reviewers, other assessors and unassigned ones 403; another enterprise 404', async () => {
    const [s] = await scenarios(1);
    const body = { risk_scenario_ids: [s!.id] };
    for (const status of ['under_review', 'approved'] as const) {
      const response = await call(w.admin, 'POST', `/bras/${(await newBra(status)).id}/scenarios/bulk`, body);
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ code: 'INVALID_STATE' });
    }
    const bra = await newBra();
    await expectAccessDenied(ctx, w.reviewer, await call(w.reviewer, 'POST', `/bras/${bra.id}/scenarios/bulk`, body), 'bras.scenario.bulk_add');
    await expectAccessDenied(ctx, w.outsideAssessor, await call(w.outsideAssessor, 'POST', `/bras/${bra.id}/scenarios/bulk`, body));
    const byAdmin = await createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: w.entity.id, createdBy: w.admin.id });
    await expectAccessDenied(ctx, w.assessor, await call(w.assessor, 'POST', `/bras/${byAdmin.id}/scenarios/bulk`, body));
    expect((await call(w.otherAdmin, 'POST', `/bras/${bra.id}/scenarios/bulk`, body)).statusCode).toBe(404);
    expect(await linksOf(bra.id)).toEqual([]);
  });

  it('takes an Idempotency-Key: the same request again is replayed, nothing added twice', async () => {
    const bra = await newBra('in_progress');
    const two = await scenarios(2);
    const key = { 'idempotency-key': randomUUID() };
    const body = { risk_scenario_ids: two.map((s) => s.id) };
    const first = await call(w.admin, 'POST', `/bras/${bra.id}/scenarios/bulk`, body, key);
    const again = await call(w.admin, 'POST', `/bras/${bra.id}/scenarios/bulk`, body, key);
    expect(first.statusCode, first.body).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    expect(await linksOf(bra.id)).toHaveLength(2);
  });
});
