import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { NO_TERMS } from '../../src/platform/versions/change-terms.js';
import { createBra, createBraWorld, createRiskScenario, createSubControl } from '../support/bras-factories.js';
import { createLegalEntity } from '../support/factories.js';
import { createServiceContext, refusalOf } from '../support/services.js';

/**
 * The diff of a BRA (history/diff.service.ts), asked of the service: which snapshots it may compare (its own,
 * and after a roll-forward the approval it started from), the live side built as a snapshot is, and what it
 * refuses. diff.ts's own comparison rules have their unit test (src/modules/bras/history/diff.test.ts); here
 * the BRA is changed through the services, as a client changes it.
 */
describe('the diff of a BRA, on the service (bras.diff)', async () => {
  const ctx = await createServiceContext();
  const w = await createBraWorld(ctx);
  const { bras, content, transitions, snapshots, diff, rollForward } = ctx.services.bras;
  const admin = await ctx.callerOf(w.admin);
  const reviewer = await ctx.callerOf(w.reviewer, 'bras.diff');
  const compare = (braId: string, from: string, to: string) => diff.diff(reviewer, braId, { from, to });
  const snapshotOf = async (braId: string, kind: 'created' | 'approved') => (await snapshots.listSnapshots(admin, braId)).find((s) => s.kind === kind && s.bra_id === braId)!.id;
  const rate = (braId: string, linkId: string, type: 'inherent' | 'residual', impact: number, likelihood: number) =>
    content.recordRating(admin, braId, { bra_risk_scenario_id: linkId, rating_type: type, impact_score: impact, likelihood_score: likelihood }, NO_TERMS);

  /** A BRA opened through the service (its `created` snapshot empty), then two scenarios rated, one control linked to A. */
  async function assessedBra(legalEntityId = w.entity.id) {
    const opened = await bras.create(admin, { name: `BRA ${randomUUID().slice(0, 8)}`, legal_entity_id: legalEntityId, period: 'FY2026', assessor: 'Olivia' }, NO_TERMS);
    const [catalogueA, catalogueB] = [await createRiskScenario(ctx, w.enterprise.id), await createRiskScenario(ctx, w.enterprise.id)];
    const a = await content.addScenario(admin, opened.id, { risk_scenario_id: catalogueA.id }, NO_TERMS);
    const b = await content.addScenario(admin, opened.id, { risk_scenario_id: catalogueB.id }, NO_TERMS);
    await rate(opened.id, a.id, 'inherent', 4, 4);
    await rate(opened.id, a.id, 'residual', 3, 3);
    await rate(opened.id, b.id, 'inherent', 3, 3);
    await rate(opened.id, b.id, 'residual', 2, 2);
    const control = await createSubControl(ctx, w.enterprise.id, { tod: 'A', toe: '1', effectiveness: 'Highly Effective' });
    await content.linkControl(admin, opened.id, { sub_control_id: control.subControl.id, bra_risk_scenario_id: a.id }, NO_TERMS);
    return { id: opened.id, a, b, control, created: await snapshotOf(opened.id, 'created') };
  }

  it('a snapshot against itself, and an approved BRA against its live content, are empty', async () => {
    const bra = await assessedBra();
    const approved = await transitions.approve(admin, bra.id, {}, NO_TERMS);
    const itself = await compare(bra.id, approved.data.snapshot_id, approved.data.snapshot_id);
    expect(itself).toMatchObject({ empty: true, ratings: [], summary: [], methodology: { risk_bands: null, appetite: null } });
    const live = await compare(bra.id, approved.data.snapshot_id, 'current');
    expect(live.empty).toBe(true);
    expect(live.to).toMatchObject({ kind: 'current', snapshot_id: null, bra_id: bra.id });
  });

  it('from the created snapshot to now: the scenarios added with their ratings, the control linked, the summary moved', async () => {
    const bra = await assessedBra();
    const changes = await compare(bra.id, bra.created, 'current');
    expect(changes.empty).toBe(false);
    expect(changes.from).toMatchObject({ kind: 'created', snapshot_id: bra.created, bra_id: bra.id });
    expect(changes.scenarios.added.map((s) => [s.risk_scenario_id, s.residual_rating?.risk_score]).sort()).toEqual(
      [
        [bra.a.risk_scenario_id, 9],
        [bra.b.risk_scenario_id, 4],
      ].sort(),
    );
    expect(changes.ratings).toEqual([]);
    expect(changes.controls.added).toEqual([expect.objectContaining({ risk_scenario_id: bra.a.risk_scenario_id, sub_control_id: bra.control.subControl.id })]);
    expect(changes.summary).toEqual(
      expect.arrayContaining([
        { field: 'total_scenarios', from: 0, to: 2, delta: 2 },
        { field: 'assessed_scenarios', from: 0, to: 2, delta: 2 },
      ]),
    );
  });

  it("after a roll-forward, from the source's approval to the new BRA: the same content, every rating gone, then the new period's changes", async () => {
    const source = await assessedBra();
    const approval = (await transitions.approve(admin, source.id, {}, NO_TERMS)).data.snapshot_id;
    const created = await rollForward.rollForward(admin, source.id, { name: `FY2027 ${randomUUID().slice(0, 8)}`, period: 'FY2027' }, NO_TERMS);
    const linkOf = (catalogueId: string) => created.scenarios.find((s) => s.risk_scenario_id === catalogueId)!.id;

    const rolled = await compare(created.id, approval, 'current');
    expect(rolled.from).toMatchObject({ kind: 'approved', snapshot_id: approval, bra_id: source.id });
    expect(rolled.scenarios).toEqual({ added: [], removed: [], included: [], excluded: [] });
    expect(rolled.controls).toEqual({ added: [], removed: [], effectiveness_changed: [] });
    expect(rolled.ratings).toHaveLength(4);
    expect(rolled.ratings.every((r) => r.from !== null && r.to === null)).toBe(true);

    // The new period: A re-rated lower, B excluded.
    await rate(created.id, linkOf(source.a.risk_scenario_id), 'inherent', 4, 4);
    await rate(created.id, linkOf(source.a.risk_scenario_id), 'residual', 2, 3);
    await content.updateScenario(admin, created.id, linkOf(source.b.risk_scenario_id), false, NO_TERMS);
    const period = await compare(created.id, approval, 'current');
    expect(period.scenarios.excluded).toEqual([expect.objectContaining({ risk_scenario_id: source.b.risk_scenario_id })]);
    expect(period.ratings.filter((r) => r.risk_scenario_id === source.a.risk_scenario_id)).toEqual([
      expect.objectContaining({ rating_type: 'residual', from: expect.objectContaining({ risk_score: 9 }), to: expect.objectContaining({ risk_score: 6 }) }),
    ]);
  });

  it("shows an appetite change between a snapshot and the live content as the methodology's", async () => {
    const entity = await createLegalEntity(ctx, w.enterprise.id);
    const bra = await assessedBra(entity.id);
    await ctx.services.governance.upsert(admin, { risk_level: 'High', threshold_value: 15, legal_entity_id: entity.id }, NO_TERMS);
    const changes = await diff.diff(admin, bra.id, { from: bra.created, to: 'current' });
    expect(changes.methodology.appetite).toEqual({ from: { risk_level: 'Medium', threshold_value: 9 }, to: { risk_level: 'High', threshold_value: 15 } });
  });

  it("refuses a snapshot that is not in the BRA's list, naming the end (INVALID_REFERENCE), and another enterprise's caller (NOT_FOUND)", async () => {
    const bra = await assessedBra();
    const unrelated = await assessedBra();
    expect(await refusalOf(compare(bra.id, unrelated.created, 'current'))).toMatchObject({ code: 'INVALID_REFERENCE', details: { field: 'from' } });
    expect(await refusalOf(compare(bra.id, bra.created, unrelated.created))).toMatchObject({ code: 'INVALID_REFERENCE', details: { field: 'to' } });
    const stranger = await ctx.callerOf(w.otherAdmin, 'bras.diff');
    expect(await refusalOf(diff.diff(stranger, bra.id, { from: bra.created, to: 'current' }))).toMatchObject({ code: 'NOT_FOUND' });
    // A BRA's snapshots reach no unrelated BRA, even one of the same place.
    const other = await createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: w.entity.id });
    expect(await refusalOf(compare(other.id, bra.created, 'current'))).toMatchObject({ code: 'INVALID_REFERENCE', details: { field: 'from' } });
  });
});
