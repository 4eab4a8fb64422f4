import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { insertAction } from '../support/actions-factories.js';
import { createTestContext } from '../support/app.js';
import { auditEntries, expectAccessDenied } from '../support/audit.js';
import { addScenarioLink, createBra, createSubControl, rateBoth } from '../support/bras-factories.js';
import { cast } from '../support/cast.js';

/** Control links per scenario: the scenario's controls and weakest effectiveness, removal of links, snapshots. */
describe('control links per scenario', async () => {
  const ctx = await createTestContext();
  const w = await cast(ctx);
  const { call } = w;
  const newBra = (status: 'draft' | 'in_progress' | 'approved' = 'in_progress') =>
    createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: w.entity.id, createdBy: w.assessor.id, status });

  it('a link names a scenario of the BRA; the get-BRA lists it under that scenario with the weakest assessed effectiveness', async () => {
    const bra = await newBra();
    const [fraud, outage] = [await addScenarioLink(ctx, bra), await addScenarioLink(ctx, bra)];
    const strong = (await createSubControl(ctx, w.enterprise.id, { tod: 'A', toe: '1', effectiveness: 'Highly Effective' })).subControl;
    const weak = (await createSubControl(ctx, w.enterprise.id, { tod: 'C', toe: '4', effectiveness: 'Less Effective' })).subControl;
    const untested = (await createSubControl(ctx, w.enterprise.id)).subControl;

    const linked = await call(w.assessor, 'POST', `/bras/${bra.id}/controls`, { sub_control_id: strong.id, bra_risk_scenario_id: fraud.id });
    expect(linked.statusCode, linked.body).toBe(201);
    expect(linked.json().data).toMatchObject({ sub_control_id: strong.id, bra_risk_scenario_id: fraud.id, total_effectiveness: 'Highly Effective' });
    expect((await call(w.assessor, 'POST', `/bras/${bra.id}/controls`, { sub_control_id: weak.id, bra_risk_scenario_id: fraud.id })).statusCode).toBe(201);
    expect((await call(w.assessor, 'POST', `/bras/${bra.id}/controls`, { sub_control_id: untested.id, bra_risk_scenario_id: outage.id })).statusCode).toBe(201);
    // The same sub-control may mitigate another scenario, and be linked BRA-wide as before.
    expect((await call(w.assessor, 'POST', `/bras/${bra.id}/controls`, { sub_control_id: strong.id, bra_risk_scenario_id: outage.id })).statusCode).toBe(201);
    const wide = await call(w.assessor, 'POST', `/bras/${bra.id}/controls`, { sub_control_id: weak.id });
    expect(wide.json().data.bra_risk_scenario_id).toBeNull();
    const twice = await call(w.assessor, 'POST', `/bras/${bra.id}/controls`, { sub_control_id: strong.id, bra_risk_scenario_id: fraud.id });
    expect(twice.statusCode).toBe(409);
    expect((await call(w.assessor, 'POST', `/bras/${bra.id}/controls`, { sub_control_id: weak.id, bra_risk_scenario_id: null })).statusCode).toBe(409);

    const detail = (await call(w.reviewer, 'GET', `/bras/${bra.id}`)).json().data;
    expect(detail.controls).toHaveLength(5);
    const byId = new Map(detail.scenarios.map((s: { id: string }) => [s.id, s]));
    const fraudView = byId.get(fraud.id) as { controls: { sub_control_id: string }[]; control_effectiveness: string | null };
    const outageView = byId.get(outage.id) as typeof fraudView;
    expect(fraudView.controls.map((c) => c.sub_control_id).sort()).toEqual([strong.id, weak.id].sort());
    expect(fraudView.control_effectiveness).toBe('Less Effective');
    // The untested control is left out; the other one of the scenario decides.
    expect(outageView.controls.map((c) => c.sub_control_id).sort()).toEqual([strong.id, untested.id].sort());
    expect(outageView.control_effectiveness).toBe('Highly Effective');
    const [entry] = (await auditEntries(ctx, { entityId: bra.id, action: 'update' })).filter((e) => e.action_details['change'] === 'control_linked');
    expect(entry!.action_details).toMatchObject({ sub_control_id: strong.id, bra_risk_scenario_id: fraud.id });
  });

  it('a scenario with only untested controls, or none, has a null control effectiveness', async () => {
    const bra = await newBra();
    const [bare, untestedOnly] = [await addScenarioLink(ctx, bra), await addScenarioLink(ctx, bra)];
    const untested = (await createSubControl(ctx, w.enterprise.id)).subControl;
    await call(w.admin, 'POST', `/bras/${bra.id}/controls`, { sub_control_id: untested.id, bra_risk_scenario_id: untestedOnly.id });
    const scenarios = (await call(w.admin, 'GET', `/bras/${bra.id}`)).json().data.scenarios as { id: string; control_effectiveness: string | null; controls: unknown[] }[];
    expect(scenarios.find((s) => s.id === bare.id)).toMatchObject({ controls: [], control_effectiveness: null });
    expect(scenarios.find((s) => s.id === untestedOnly.id)).toMatchObject({ control_effectiveness: null });
  });

  it('a scenario link of another BRA, or an unknown one → 400 INVALID_REFERENCE, nothing linked', async () => {
    const bra = await newBra();
    const otherBra = await newBra();
    const foreignLink = await addScenarioLink(ctx, otherBra);
    const { subControl } = await createSubControl(ctx, w.enterprise.id);
    for (const id of [foreignLink.id, randomUUID()]) {
      const response = await call(w.admin, 'POST', `/bras/${bra.id}/controls`, { sub_control_id: subControl.id, bra_risk_scenario_id: id });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ code: 'INVALID_REFERENCE', details: { field: 'bra_risk_scenario_id' } });
    }
    expect((await call(w.admin, 'GET', `/bras/${bra.id}/controls`)).json().data).toEqual([]);
    const malformed = await call(w.admin, 'POST', `/bras/${bra.id}/controls`, { sub_control_id: subControl.id, bra_risk_scenario_id: 'nope' });
    expect(malformed.statusCode).toBe(422);
  });

  it('DELETE removes a link while the BRA is editable, audited as an update of the BRA', async () => {
    const bra = await newBra();
    const link = await addScenarioLink(ctx, bra);
    const { subControl } = await createSubControl(ctx, w.enterprise.id, { tod: 'B', toe: '2', effectiveness: 'Effective' });
    const created = (await call(w.assessor, 'POST', `/bras/${bra.id}/controls`, { sub_control_id: subControl.id, bra_risk_scenario_id: link.id })).json().data;
    const removed = await call(w.assessor, 'DELETE', `/bras/${bra.id}/controls/${created.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toEqual({ message: 'Control link removed' });
    const detail = (await call(w.assessor, 'GET', `/bras/${bra.id}`)).json().data;
    expect(detail.controls).toEqual([]);
    expect(detail.scenarios[0]).toMatchObject({ controls: [], control_effectiveness: null });
    const [entry] = (await auditEntries(ctx, { entityId: bra.id, action: 'update' })).filter((e) => e.action_details['change'] === 'control_unlinked');
    expect(entry!.action_details).toMatchObject({ operation: 'bras.control.unlink', control_link_id: created.id, sub_control_id: subControl.id, bra_risk_scenario_id: link.id });
    expect((await call(w.assessor, 'DELETE', `/bras/${bra.id}/controls/${created.id}`)).statusCode).toBe(404);
  });

  it('DELETE: 409 once the BRA is approved, 403 for reviewers, 404 for another BRA’s link and for another enterprise', async () => {
    const bra = await newBra();
    const { subControl } = await createSubControl(ctx, w.enterprise.id);
    const created = (await call(w.admin, 'POST', `/bras/${bra.id}/controls`, { sub_control_id: subControl.id })).json().data;
    await expectAccessDenied(ctx, w.reviewer, await call(w.reviewer, 'DELETE', `/bras/${bra.id}/controls/${created.id}`), 'bras.control.unlink');
    const otherBra = await newBra();
    expect((await call(w.admin, 'DELETE', `/bras/${otherBra.id}/controls/${created.id}`)).statusCode).toBe(404);
    const foreign = await call(w.otherAdmin, 'DELETE', `/bras/${bra.id}/controls/${created.id}`);
    expect(foreign.statusCode).toBe(404);
    await ctx.db.updateTable('bras').set({ status: 'approved' }).where('id', '=', bra.id).execute();
    const locked = await call(w.admin, 'DELETE', `/bras/${bra.id}/controls/${created.id}`);
    expect(locked.statusCode).toBe(409);
    expect(locked.json()).toMatchObject({ code: 'INVALID_STATE' });
    expect((await call(w.admin, 'GET', `/bras/${bra.id}/controls`)).json().data).toHaveLength(1);
  });

  it('the approval snapshot carries the scenario links, the justifications and the BRA’s actions as they stood', async () => {
    const bra = await newBra();
    const link = await addScenarioLink(ctx, bra);
    await rateBoth(ctx, link, [4, 4], [3, 2]);
    const { subControl } = await createSubControl(ctx, w.enterprise.id, { tod: 'A', toe: '2', effectiveness: 'Highly Effective' });
    await call(w.admin, 'POST', `/bras/${bra.id}/controls`, { sub_control_id: subControl.id, bra_risk_scenario_id: link.id });
    const action = await insertAction(ctx, { enterpriseId: w.enterprise.id, braId: bra.id, linkId: link.id, action: 'Retrain staff' });
    await call(w.admin, 'POST', `/bras/${bra.id}/submit`);
    const approved = await call(w.admin, 'POST', `/bras/${bra.id}/approve`, { final_comment: 'ok' });
    expect(approved.statusCode, approved.body).toBe(200);
    await ctx.db.updateTable('mitigation_actions').set({ status: 'completed' }).where('id', '=', action.id).execute();
    const snapshot = (await call(w.reviewer, 'GET', `/bras/${bra.id}/snapshots/${approved.json().data.snapshot_id}`)).json().data;
    expect(snapshot.content.scenarios[0]).toMatchObject({
      id: link.id,
      control_effectiveness: 'Highly Effective',
      controls: [{ sub_control_id: subControl.id, bra_risk_scenario_id: link.id }],
      inherent_rating: { risk_score: 16, justification: null },
    });
    expect(snapshot.actions).toEqual([
      expect.objectContaining({ id: action.id, action: 'Retrain staff', status: 'created', bra_risk_scenario_id: link.id }),
    ]);
  });
});
