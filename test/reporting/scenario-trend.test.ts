import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sessionHeaders } from '../support/api.js';
import { createTestContext } from '../support/app.js';
import { createBra, createBraWorld, createRiskScenario, rateBoth } from '../support/bras-factories.js';
import type { TestUser } from '../support/factories.js';

/** GET /risk-scenarios/{id}/trend: one scenario across the approved BRAs of the caller's scope, by approval date (issue 35). */
describe('a scenario’s trend across approved BRAs', async () => {
  const ctx = await createTestContext();
  const w = await createBraWorld(ctx);
  const headersOf = sessionHeaders(ctx);
  const trend = async (user: TestUser, id: string, query = '') =>
    ctx.app.inject({ method: 'GET', url: `/api/v1/risk-scenarios/${id}/trend${query}`, headers: await headersOf(user) });
  const scenario = await createRiskScenario(ctx, w.enterprise.id);

  /** A BRA holding the scenario (rated inherent 4×4 and the given residual), in a status, approved at a date when approved. */
  async function braWith(place: { legalEntityId: string; businessUnitId?: string | null }, status: 'approved' | 'in_progress', approvedAt: string | null, residual: [number, number], included = true) {
    const bra = await createBra(ctx, { enterpriseId: w.enterprise.id, ...place, status });
    if (approvedAt !== null) await ctx.db.updateTable('bras').set({ approved_at: new Date(approvedAt), completion_date: approvedAt.slice(0, 10) }).where('id', '=', bra.id).execute();
    const link = await ctx.db
      .insertInto('bra_risk_scenarios')
      .values({ enterprise_id: w.enterprise.id, bra_id: bra.id, risk_scenario_id: scenario.id, included })
      .returningAll()
      .executeTakeFirstOrThrow();
    await rateBoth(ctx, link, [4, 4], residual);
    return bra;
  }

  const fy25 = await braWith({ legalEntityId: w.entity.id }, 'approved', '2025-06-30T12:00:00Z', [3, 4]);
  const elsewhere = await braWith({ legalEntityId: w.elsewhere.id }, 'approved', '2025-09-30T12:00:00Z', [4, 4]);
  const fy26 = await braWith({ legalEntityId: w.entity.id, businessUnitId: w.unit.id }, 'approved', '2026-06-30T12:00:00Z', [2, 3]);
  await braWith({ legalEntityId: w.entity.id }, 'in_progress', null, [1, 1]); // live: not in the trend
  await braWith({ legalEntityId: w.entity.id }, 'approved', '2026-01-01T12:00:00Z', [5, 5], false); // excluded there: not either

  const ids = async (user: TestUser, query = '') => {
    const response = await trend(user, scenario.id, query);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.points.map((p: { bra: { id: string } }) => p.bra.id);
  };

  it('gives the inherent and residual score and level in each approved BRA, oldest approval first', async () => {
    const response = await trend(w.admin, scenario.id);
    expect(response.statusCode, response.body).toBe(200);
    const data = response.json().data;
    expect(data.risk_scenario).toEqual({ id: scenario.id, name: scenario.name, category: scenario.category });
    expect(data.points.map((p: { bra: { id: string } }) => p.bra.id)).toEqual([fy25.id, elsewhere.id, fy26.id]);
    expect(data.points[0]).toMatchObject({
      bra: { id: fy25.id, approved_at: '2025-06-30T12:00:00.000Z', period: 'FY2026' },
      legal_entity: { id: w.entity.id },
      business_unit: null,
      inherent_rating: { risk_score: 16, risk_level: 'Very High' },
      residual_rating: { impact_score: 3, likelihood_score: 4, risk_score: 12, risk_level: 'High' },
    });
    expect(data.points[2]).toMatchObject({ business_unit: { id: w.unit.id }, residual_rating: { risk_score: 6, risk_level: 'Medium' } });
  });

  it('D5 in SQL: assessors and reviewers see only the approved BRAs of their entities and units', async () => {
    expect(await ids(w.assessor)).toEqual([fy25.id, fy26.id]);
    expect(await ids(w.reviewer)).toEqual([fy25.id, fy26.id]);
    expect(await ids(w.unitAssessor)).toEqual([fy26.id]);
    expect(await ids(w.outsideReviewer)).toEqual([elsewhere.id]);
  });

  it('filters by legal entity and business unit, as the register does (400 unknown, 403 not assigned)', async () => {
    expect(await ids(w.admin, `?legal_entity_id=${w.entity.id}`)).toEqual([fy25.id, fy26.id]);
    expect(await ids(w.admin, `?business_unit_id=${w.unit.id}`)).toEqual([fy26.id]);
    expect((await trend(w.admin, scenario.id, `?legal_entity_id=${randomUUID()}`)).json().code).toBe('INVALID_REFERENCE');
    expect((await trend(w.outsideReviewer, scenario.id, `?legal_entity_id=${w.entity.id}`)).statusCode).toBe(403);
    expect((await trend(w.unitAssessor, scenario.id, `?business_unit_id=${w.otherUnit.id}`)).statusCode).toBe(403);
  });

  it('an unknown scenario, or another enterprise’s, is 404; a super admin 403', async () => {
    expect((await trend(w.admin, randomUUID())).statusCode).toBe(404);
    expect((await trend(w.otherAdmin, scenario.id)).statusCode).toBe(404);
    expect((await trend(w.superAdmin, scenario.id)).statusCode).toBe(403);
    const unused = await createRiskScenario(ctx, w.enterprise.id);
    expect((await trend(w.admin, unused.id)).json().data.points).toEqual([]);
  });
});
