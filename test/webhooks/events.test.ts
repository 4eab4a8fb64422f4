import { describe, expect, it } from 'vitest';
import { announceOverdueActions } from '../../src/modules/actions/overdue-events.js';
import { EVENT_TYPES } from '../../src/platform/events/event-types.js';
import { createTestContext } from '../support/app.js';
import { insertAction, utcDate } from '../support/actions-factories.js';
import { addScenarioLink, createBra, createBraWorld, rateBoth } from '../support/bras-factories.js';
import { calls } from '../support/cast.js';
import { startReceiver } from '../support/webhook-receiver.js';
import { dispatcherFor, registerFor } from './support.js';

const SUBSCRIBABLE = EVENT_TYPES.filter((type) => type !== 'webhook.test');

/**
 * Each event is emitted where its change happens, in its transaction, with ids and names of the tenant's
 * own data; observed end to end at a receiver subscribed to every type.
 */
describe('the events modules announce', async () => {
  const ctx = await createTestContext({ env: { WEBHOOKS_ALLOW_LOOPBACK: 'true' } });
  const { call } = calls(ctx);
  const dispatcher = dispatcherFor(ctx);

  async function listening() {
    const w = await createBraWorld(ctx);
    const receiver = await startReceiver();
    await registerFor(call, w.admin, receiver, [...SUBSCRIBABLE]);
    const events = async () => {
      await dispatcher.round();
      expect(receiver.allVerified).toBe(true);
      const all: Record<string, unknown>[] = receiver.received.map((r) => ({ type: r.type, ...r.payload.data }));
      receiver.received.length = 0;
      for (const event of all) expect(event['enterprise_id']).toBe(w.enterprise.id);
      return all;
    };
    return { w, events };
  }

  it('bra.created, then bra.status_changed for every move (draft → in_progress by a change, submit, return), and bra.cancelled', async () => {
    const { w, events } = await listening();
    const created = await call(w.assessor, 'POST', '/bras', { name: 'Payments 2026', legal_entity_id: w.entity.id, period: 'FY2026', assessor: 'A. Assessor' });
    expect(created.statusCode, created.body).toBe(201);
    const braId = created.json().data.id;
    expect(await events()).toEqual([
      { type: 'bra.created', enterprise_id: w.enterprise.id, bra_id: braId, name: 'Payments 2026', legal_entity_id: w.entity.id, business_unit_id: null, status: 'draft' },
    ]);
    const scenario = await ctx.db.insertInto('risk_scenarios').values({ enterprise_id: w.enterprise.id, name: 'Card fraud', category: 'External fraud' }).returning('id').executeTakeFirstOrThrow();
    expect((await call(w.assessor, 'POST', `/bras/${braId}/scenarios`, { risk_scenario_id: scenario.id })).statusCode).toBe(201);
    expect((await call(w.assessor, 'POST', `/bras/${braId}/submit`)).statusCode).toBe(200);
    expect((await call(w.admin, 'POST', `/bras/${braId}/return`, { comment: 'More detail' })).statusCode).toBe(200);
    expect((await call(w.admin, 'POST', `/bras/${braId}/cancel`, {})).statusCode).toBe(200);
    const moves = { enterprise_id: w.enterprise.id, bra_id: braId, name: 'Payments 2026' };
    expect(await events()).toEqual([
      { type: 'bra.status_changed', ...moves, from: 'draft', to: 'in_progress' },
      { type: 'bra.status_changed', ...moves, from: 'in_progress', to: 'under_review' },
      { type: 'bra.status_changed', ...moves, from: 'under_review', to: 'in_progress' },
      { type: 'bra.status_changed', ...moves, from: 'in_progress', to: 'cancelled' },
      { type: 'bra.cancelled', ...moves, cancelled_by: w.admin.id },
    ]);
  });

  it('risk.above_appetite once per scenario and crossing when a residual rating goes above the applicable threshold', async () => {
    const { w, events } = await listening();
    const bra = await createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: w.entity.id, status: 'in_progress' });
    const link = await addScenarioLink(ctx, bra);
    const rate = async (impact: number, likelihood: number, rating_type = 'residual') => {
      const response = await call(w.admin, 'POST', `/bras/${bra.id}/ratings`, { bra_risk_scenario_id: link.id, rating_type, impact_score: impact, likelihood_score: likelihood });
      expect(response.statusCode, response.body).toBe(201);
    };
    await rate(5, 5, 'inherent'); // inherent ratings never cross
    await rate(3, 3); // 9: at the default threshold (9), within appetite
    expect((await events()).filter((e) => e.type === 'risk.above_appetite')).toEqual([]);
    await rate(3, 4); // 12: crosses
    await rate(4, 4); // 16: still above, no new crossing
    const crossed = (await events()).filter((e) => e.type === 'risk.above_appetite');
    expect(crossed).toEqual([
      expect.objectContaining({ bra_id: bra.id, bra_name: bra.name, bra_risk_scenario_id: link.id, risk_scenario_id: link.risk_scenario_id, risk_score: 12, threshold_value: 9, cause: 'residual_rating' }),
    ]);
    expect(crossed[0]!['risk_scenario_name']).toEqual(expect.any(String));
    await rate(2, 2); // back within
    await rate(5, 3); // 15: a new crossing
    expect((await events()).filter((e) => e.type === 'risk.above_appetite').map((e) => e['risk_score'])).toEqual([15]);
  });

  it('an excluded scenario never crosses', async () => {
    const { w, events } = await listening();
    const bra = await createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: w.entity.id, status: 'in_progress' });
    const link = await addScenarioLink(ctx, bra, false);
    const rated = await call(w.admin, 'POST', `/bras/${bra.id}/ratings`, { bra_risk_scenario_id: link.id, rating_type: 'residual', impact_score: 5, likelihood_score: 5 });
    expect(rated.statusCode, rated.body).toBe(201);
    expect((await events()).filter((e) => e.type === 'risk.above_appetite')).toEqual([]);
  });

  it('an appetite change: risk_appetite.changed, and risk.above_appetite for the live BRAs’ scenarios it pushes above', async () => {
    const { w, events } = await listening();
    const live = await createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: w.entity.id, status: 'under_review' });
    const approved = await createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: w.entity.id, status: 'approved' });
    const elsewhere = await createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: w.elsewhere.id, status: 'in_progress' });
    const at8 = await addScenarioLink(ctx, live);
    await rateBoth(ctx, at8, [4, 4], [2, 4]); // residual 8
    const at4 = await addScenarioLink(ctx, live);
    await rateBoth(ctx, at4, [4, 4], [2, 2]); // residual 4
    const already = await addScenarioLink(ctx, live);
    await rateBoth(ctx, already, [5, 5], [4, 4]); // residual 16: above already
    await rateBoth(ctx, await addScenarioLink(ctx, approved), [4, 4], [2, 4]);
    await rateBoth(ctx, await addScenarioLink(ctx, elsewhere), [4, 4], [2, 4]);

    const override = await call(w.admin, 'POST', '/governance/risk-appetite', { legal_entity_id: w.entity.id, risk_level: 'Low', threshold_value: 6, reason: 'Tighter' });
    expect(override.statusCode, override.body).toBe(201);
    const recordId = override.json().data.id;
    const first = await events();
    expect(first[0]).toEqual({
      type: 'risk_appetite.changed',
      enterprise_id: w.enterprise.id,
      risk_appetite_id: recordId,
      legal_entity_id: w.entity.id,
      business_unit_id: null,
      previous: null,
      new: { risk_level: 'Low', threshold_value: 6 },
    });
    // Only the live BRA's scenario at 8 crosses (16 was above 9 already; 4 stays within; approved and other entities untouched).
    expect(first.slice(1)).toEqual([
      expect.objectContaining({ type: 'risk.above_appetite', bra_id: live.id, bra_risk_scenario_id: at8.id, risk_score: 8, threshold_value: 6, risk_appetite_id: recordId, cause: 'risk_appetite_change' }),
    ]);

    // Deleting the override falls back to the default (9): nothing new crosses, the change is announced.
    expect((await call(w.admin, 'DELETE', `/governance/risk-appetite/${recordId}`)).statusCode).toBe(200);
    expect(await events()).toEqual([
      expect.objectContaining({ type: 'risk_appetite.changed', risk_appetite_id: recordId, previous: { risk_level: 'Low', threshold_value: 6 }, new: null }),
    ]);
    // Lowering it again is a new crossing of the same scenario (8 > 5; 4 stays within).
    const again = await call(w.admin, 'POST', '/governance/risk-appetite', { legal_entity_id: w.entity.id, risk_level: 'Low', threshold_value: 5 });
    expect(again.statusCode, again.body).toBe(201);
    expect((await events()).filter((e) => e.type === 'risk.above_appetite').map((e) => e['bra_risk_scenario_id'])).toEqual([at8.id]);
    // Raising the enterprise default changes nothing for that entity (its override applies): announced, no crossing.
    expect((await call(w.admin, 'POST', '/governance/risk-appetite', { risk_level: 'High', threshold_value: 3 })).statusCode).toBe(200);
    const defaults = await events();
    expect(defaults.map((e) => e.type)).toEqual(['risk_appetite.changed', 'risk.above_appetite']);
    expect(defaults[1]).toMatchObject({ bra_id: elsewhere.id, risk_score: 8, threshold_value: 3 });
  });

  it('mitigation_action.completed when an action is completed (one at a time or in bulk), not when it already was', async () => {
    const { w, events } = await listening();
    const one = await insertAction(ctx, { enterpriseId: w.enterprise.id, action: 'Rotate keys', owner: 'IT', priority: 'high' });
    const two = await insertAction(ctx, { enterpriseId: w.enterprise.id, action: 'Train staff' });
    const done = await insertAction(ctx, { enterpriseId: w.enterprise.id, status: 'completed' });
    expect((await call(w.admin, 'PATCH', `/mitigation-actions/${one.id}`, { status: 'completed' })).statusCode).toBe(200);
    expect((await call(w.admin, 'PATCH', `/mitigation-actions/${one.id}`, { status: 'completed' })).statusCode).toBe(200);
    expect((await call(w.admin, 'POST', '/mitigation-actions/bulk-update', { action_ids: [two.id, done.id], updates: { status: 'completed' } })).statusCode).toBe(200);
    const completed = await events();
    expect(completed).toEqual([
      { type: 'mitigation_action.completed', enterprise_id: w.enterprise.id, mitigation_action_id: one.id, action: 'Rotate keys', owner: 'IT', priority: 'high', due_date: one.due_date },
      expect.objectContaining({ type: 'mitigation_action.completed', mitigation_action_id: two.id }),
    ]);
  });

  it('mitigation_action.overdue once per action and due date, whoever runs the scan', async () => {
    const { w, events } = await listening();
    const late = await insertAction(ctx, { enterpriseId: w.enterprise.id, action: 'Patch servers', dueDate: utcDate(-2) });
    await insertAction(ctx, { enterpriseId: w.enterprise.id, dueDate: utcDate(0) }); // due today: not overdue
    await insertAction(ctx, { enterpriseId: w.enterprise.id, dueDate: utcDate(-5), status: 'completed' });
    await insertAction(ctx, { enterpriseId: w.enterprise.id, dueDate: utcDate(-5), archived: true });
    const [a, b] = await Promise.all([announceOverdueActions(ctx.database.db, new Date()), announceOverdueActions(ctx.database.db, new Date())]);
    expect(a + b).toBeGreaterThanOrEqual(1);
    await announceOverdueActions(ctx.database.db, new Date());
    expect((await events()).filter((e) => e['mitigation_action_id'] !== undefined && e['enterprise_id'] === w.enterprise.id)).toEqual([
      { type: 'mitigation_action.overdue', enterprise_id: w.enterprise.id, mitigation_action_id: late.id, action: 'Patch servers', owner: late.owner, priority: late.priority, due_date: utcDate(-2), bra_id: null },
    ]);
    // A new due date that passes too is a new event; the day after, the same one is not.
    expect((await call(w.admin, 'PATCH', `/mitigation-actions/${late.id}`, { due_date: utcDate(-1) })).statusCode).toBe(200);
    await announceOverdueActions(ctx.database.db, new Date());
    await announceOverdueActions(ctx.database.db, new Date(Date.now() + 86_400_000));
    const next = await events();
    expect(next.filter((e) => e.type === 'mitigation_action.overdue' && e['mitigation_action_id'] === late.id).map((e) => e['due_date'])).toEqual([utcDate(-1)]);
  });
});
