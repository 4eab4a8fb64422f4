import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { sessionHeaders } from '../support/api.js';
import { insertAction } from '../support/actions-factories.js';
import { addScenarioLink, createBra, ensureDefaultAppetite, rateBoth } from '../support/bras-factories.js';
import { createLegalEntity, createUser } from '../support/factories.js';

/**
 * Concurrent requests on one record: the database settles each race with one winner (a unique index, a
 * row lock, a state check under that lock), the losers get the contract's 409, nothing answers 5xx, and
 * every audit chain still verifies afterwards.
 */
describe('races: one winner each, and the chains verify', async () => {
  const ctx = await createTestContext();
  const headersOf = sessionHeaders(ctx);
  const admin = await createUser(ctx, { role: 'admin' });
  const enterpriseId = admin.enterpriseId!;
  const headers = await headersOf(admin);
  const entity = await createLegalEntity(ctx, enterpriseId);
  await ensureDefaultAppetite(ctx, enterpriseId);
  const at = (method: 'POST' | 'PATCH', url: string, payload: object) => ctx.app.inject({ method, url: `/api/v1${url}`, headers, payload });
  const statuses = (responses: { statusCode: number }[]) => responses.map((response) => response.statusCode).sort();

  it('the same BRA name ×8: one 201, seven 409 CONFLICT, one row', async () => {
    const name = `Raced BRA ${Date.now()}`;
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => at('POST', '/bras', { name, legal_entity_id: entity.id, period: 'FY2026', assessor: 'Ann' })),
    );
    expect(statuses(responses)).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    expect(responses.filter((r) => r.statusCode === 409).every((r) => r.json().code === 'CONFLICT')).toBe(true);
    const rows = await ctx.db.selectFrom('bras').select('id').where('enterprise_id', '=', enterpriseId).where('name', '=', name).execute();
    expect(rows).toHaveLength(1);
  });

  it('approve against cancel, four rounds: one wins, the other is 409 INVALID_STATE, the BRA ends as the winner left it', async () => {
    for (let round = 0; round < 4; round += 1) {
      const bra = await createBra(ctx, { enterpriseId, legalEntityId: entity.id, status: 'under_review' });
      const link = await addScenarioLink(ctx, bra);
      await rateBoth(ctx, link, [3, 3], [2, 2]);
      const [approve, cancel] = await Promise.all([
        at('POST', `/bras/${bra.id}/approve`, { final_comment: 'Approved in a race' }),
        at('POST', `/bras/${bra.id}/cancel`, { cancellation_reason: 'Cancelled in a race' }),
      ]);
      expect(statuses([approve, cancel])).toEqual([200, 409]);
      const loser = approve.statusCode === 409 ? approve : cancel;
      expect(loser.json().code).toBe('INVALID_STATE');
      const row = await ctx.db.selectFrom('bras').select('status').where('id', '=', bra.id).executeTakeFirstOrThrow();
      expect(row.status).toBe(approve.statusCode === 200 ? 'approved' : 'cancelled');
    }
  });

  it('upserting the appetite of one scope ×8: one 201 creates it, seven 200 update it, one row', async () => {
    const scope = await createLegalEntity(ctx, enterpriseId);
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        at('POST', '/governance/risk-appetite', { risk_level: 'Medium', threshold_value: 5 + i, legal_entity_id: scope.id, reason: `race ${i}` }),
      ),
    );
    expect(statuses(responses)).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    const rows = await ctx.db.selectFrom('risk_appetites').select('threshold_value').where('legal_entity_id', '=', scope.id).execute();
    expect(rows).toHaveLength(1);
  });

  it('ratings of one scenario and type ×8: each is 201 or 409, one current rating, the rest superseded', async () => {
    const bra = await createBra(ctx, { enterpriseId, legalEntityId: entity.id, status: 'in_progress' });
    const link = await addScenarioLink(ctx, bra);
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        at('POST', `/bras/${bra.id}/ratings`, { bra_risk_scenario_id: link.id, rating_type: 'inherent', impact_score: 1 + (i % 5), likelihood_score: 2 }),
      ),
    );
    for (const response of responses) expect([201, 409], response.body).toContain(response.statusCode);
    const accepted = responses.filter((response) => response.statusCode === 201).length;
    expect(accepted).toBeGreaterThan(0);
    const rows = await ctx.db.selectFrom('bra_ratings').select('superseded_at').where('bra_risk_scenario_id', '=', link.id).execute();
    expect(rows).toHaveLength(accepted);
    expect(rows.filter((row) => row.superseded_at === null)).toHaveLength(1);
  });

  it('two bulk updates of the same actions: all-or-nothing each, so every action ends with the same priority', async () => {
    const actions = await Promise.all(Array.from({ length: 10 }, () => insertAction(ctx, { enterpriseId })));
    const action_ids = actions.map((action) => action.id);
    const responses = await Promise.all([
      at('POST', '/mitigation-actions/bulk-update', { action_ids, updates: { priority: 'low' } }),
      at('POST', '/mitigation-actions/bulk-update', { action_ids: [...action_ids].reverse(), updates: { priority: 'critical' } }),
    ]);
    expect(statuses(responses)).toEqual([200, 200]);
    const rows = await ctx.db.selectFrom('mitigation_actions').select('priority').where('id', 'in', action_ids).execute();
    expect(new Set(rows.map((row) => row.priority)).size).toBe(1);
    const entries = await ctx.db.selectFrom('audit_log').select('id').where('entity_id', 'in', action_ids).execute();
    expect(entries).toHaveLength(20);
  });

  it('afterwards the enterprise chain verifies', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/v1/audit/verify', headers });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({ valid: true, failure: null });
    expect(response.json().data.entries_checked).toBeGreaterThan(20);
  });
});
