import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { expectAccessDenied } from '../support/audit.js';
import { addRating, addScenarioLink, createAppetite, createBra, createSubControl, rateBoth } from '../support/bras-factories.js';
import { cast } from '../support/cast.js';
import { createBusinessUnit, createLegalEntity } from '../support/factories.js';

/** D6.8 summary with the applicable appetite of D6.9 and D10.6; D6.10 snapshots and their immutability. */
describe('BRA summary and snapshots', async () => {
  const ctx = await createTestContext();
  const w = await cast(ctx);
  const { call } = w;
  const summaryOf = async (braId: string) => {
    const response = await call(w.admin, 'GET', `/bras/${braId}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.summary;
  };

  /**
   * Five links: two fully rated (residual 12 and 6), one with an inherent rating only, one with a
   * residual rating only (16), and one excluded with a residual of 20.
   */
  async function braWithMixedRatings(legalEntityId: string, businessUnitId: string | null) {
    const bra = await createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId, businessUnitId, status: 'in_progress' });
    await rateBoth(ctx, await addScenarioLink(ctx, bra), [5, 5], [3, 4]);
    await rateBoth(ctx, await addScenarioLink(ctx, bra), [4, 3], [2, 3]);
    await addRating(ctx, await addScenarioLink(ctx, bra), 'inherent', 5, 4);
    await addRating(ctx, await addScenarioLink(ctx, bra), 'residual', 4, 4);
    await rateBoth(ctx, await addScenarioLink(ctx, bra, false), [5, 5], [5, 4]);
    return bra;
  }

  describe('summary (D6.8, D6.9, D10.6)', () => {
    it('counts included scenarios, the fully rated ones, and residual scores above the enterprise default (9); excluded ones not at all', async () => {
      const bra = await braWithMixedRatings(w.entity.id, null);
      expect(await summaryOf(bra.id)).toEqual({
        total_scenarios: 4,
        assessed_scenarios: 2,
        risks_above_appetite: 2,
        completion_percentage: 50,
        scenarios_above_appetite: [expect.objectContaining({ residual_score: 16, threshold: 9 }), expect.objectContaining({ residual_score: 12, threshold: 9 })],
      });
    });

    it('a legal-entity override replaces the default for every BRA of the entity; a unit override wins for BRAs of that unit', async () => {
      const entity = await createLegalEntity(ctx, w.enterprise.id);
      const unit = await createBusinessUnit(ctx, w.enterprise.id, entity.id);
      const entityBra = await braWithMixedRatings(entity.id, null);
      const unitBra = await braWithMixedRatings(entity.id, unit.id);
      await createAppetite(ctx, w.enterprise.id, { threshold: 15, legalEntityId: entity.id, level: 'High' });
      expect((await summaryOf(entityBra.id)).risks_above_appetite).toBe(1); // 16 only
      expect((await summaryOf(unitBra.id)).risks_above_appetite).toBe(1);
      await createAppetite(ctx, w.enterprise.id, { threshold: 5, legalEntityId: entity.id, businessUnitId: unit.id, level: 'Low' });
      expect((await summaryOf(unitBra.id)).risks_above_appetite).toBe(3); // 12, 6 and 16
      expect((await summaryOf(entityBra.id)).risks_above_appetite).toBe(1);
      // A score equal to the threshold is within the appetite.
      await sql`update risk_appetites set threshold_value = 12 where business_unit_id = ${unit.id}`.execute(ctx.db);
      expect((await summaryOf(unitBra.id)).risks_above_appetite).toBe(1);
    });

    it('no included scenarios: everything 0, completion 0', async () => {
      const bra = await createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: w.entity.id, status: 'in_progress' });
      await rateBoth(ctx, await addScenarioLink(ctx, bra, false), [5, 5], [5, 5]);
      expect(await summaryOf(bra.id)).toEqual({ total_scenarios: 0, assessed_scenarios: 0, risks_above_appetite: 0, completion_percentage: 0, scenarios_above_appetite: [] });
    });
  });

  describe('snapshots (D6.10)', async () => {
    // One BRA through its whole life over HTTP: created, scenarios rated, a control linked, approved.
    const entity = await createLegalEntity(ctx, w.enterprise.id);
    const appetite = await createAppetite(ctx, w.enterprise.id, { threshold: 10, legalEntityId: entity.id, level: 'High' });
    const { subControl } = await createSubControl(ctx, w.enterprise.id, { tod: 'A', toe: '1', effectiveness: 'Highly Effective' });
    const created = await call(w.admin, 'POST', '/bras', { name: `Snapshot BRA ${randomUUID().slice(0, 6)}`, legal_entity_id: entity.id, period: 'FY2026', assessor: 'Olivia' });
    const braId = created.json().data.id as string;
    const scenarioIds = (await ctx.db.selectFrom('risk_scenarios').select('id').where('enterprise_id', '=', w.enterprise.id).limit(2).execute()).map((r) => r.id);
    if (scenarioIds.length < 2) for (const _ of [1, 2]) scenarioIds.push((await ctx.db.insertInto('risk_scenarios').values({ enterprise_id: w.enterprise.id, name: randomUUID(), category: 'x' }).returning('id').executeTakeFirstOrThrow()).id);
    for (const [index, scenarioId] of scenarioIds.slice(0, 2).entries()) {
      const link = (await call(w.admin, 'POST', `/bras/${braId}/scenarios`, { risk_scenario_id: scenarioId })).json().data.id;
      await call(w.admin, 'POST', `/bras/${braId}/ratings`, { bra_risk_scenario_id: link, rating_type: 'inherent', impact_score: 5, likelihood_score: 4 });
      await call(w.admin, 'POST', `/bras/${braId}/ratings`, { bra_risk_scenario_id: link, rating_type: 'residual', impact_score: 3, likelihood_score: index === 0 ? 4 : 3 });
    }
    await call(w.admin, 'POST', `/bras/${braId}/controls`, { sub_control_id: subControl.id });
    const approved = await call(w.admin, 'POST', `/bras/${braId}/approve`, { final_comment: 'Signed off' });
    const approvedView = (await call(w.admin, 'GET', `/bras/${braId}`)).json().data;
    const snapshotId = approved.json().data.snapshot_id as string;

    it('lists the created and approved snapshots, newest first', async () => {
      expect(created.statusCode, created.body).toBe(201);
      expect(approved.statusCode, approved.body).toBe(200);
      const response = await call(w.admin, 'GET', `/bras/${braId}/snapshots`);
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toEqual([
        { id: snapshotId, bra_id: braId, kind: 'approved', created_at: expect.stringMatching(/Z$/), created_by: w.admin.id, created_by_user: { id: w.admin.id, full_name: w.admin.fullName } },
        { id: expect.any(String), bra_id: braId, kind: 'created', created_at: expect.stringMatching(/Z$/), created_by: w.admin.id, created_by_user: { id: w.admin.id, full_name: w.admin.fullName } },
      ]);
    });

    it('the approved snapshot holds the get-BRA data as the approver saw it, and the methodology with the appetite that applied', async () => {
      const response = await call(w.admin, 'GET', `/bras/${braId}/snapshots/${snapshotId}`);
      expect(response.statusCode, response.body).toBe(200);
      const data = response.json().data;
      expect(data).toMatchObject({ id: snapshotId, kind: 'approved', created_by: w.admin.id });
      // The get-BRA's own members (people by name, comments, today's breaches, the return reason and the timeline of
      // moves, both read from the audit trail) and the reader's abilities are not part of the content.
      const { created_by_user, approved_by_user, cancelled_by_user, comment_count, latest_verdicts, current_appetite_breaches, return_reason, transitions, abilities, ...content } =
        approvedView;
      // The snapshot adds the evidence it covers (issue 48): none was attached to this BRA.
      expect(data.content).toEqual({ ...content, evidence: [] });
      expect(data.content.summary).toMatchObject({ total_scenarios: 2, assessed_scenarios: 2, risks_above_appetite: 1, completion_percentage: 100 });
      expect(data.methodology).toEqual({
        risk_bands: [
          { level: 'Low', min: 1, max: 4 },
          { level: 'Medium', min: 5, max: 9 },
          { level: 'High', min: 10, max: 15 },
          { level: 'Very High', min: 16, max: 25 },
        ],
        appetite: { id: appetite.id, risk_level: 'High', threshold_value: 10, legal_entity_id: entity.id, business_unit_id: null },
      });
      const first = (await call(w.admin, 'GET', `/bras/${braId}/snapshots`)).json().data[1];
      const createdSnapshot = (await call(w.admin, 'GET', `/bras/${braId}/snapshots/${first.id}`)).json().data;
      expect(createdSnapshot.content).toMatchObject({ id: braId, status: 'draft', scenarios: [], controls: [], snapshot_id: null });
    });

    it("a later appetite change and new test results change the live BRA's breaches and controls, never its summary or the snapshot", async () => {
      const before = (await call(w.admin, 'GET', `/bras/${braId}/snapshots/${snapshotId}`)).json().data;
      await sql`update risk_appetites set threshold_value = 5 where id = ${appetite.id}`.execute(ctx.db);
      await ctx.db.updateTable('sub_controls').set({ tod: 'E', toe: '5', total_effectiveness: 'Not Effective' }).where('id', '=', subControl.id).execute();
      const live = (await call(w.admin, 'GET', `/bras/${braId}`)).json().data;
      // Approved means as approved: the summary keeps the pinned appetite; today's shows beside it.
      expect(live.summary.risks_above_appetite).toBe(1);
      expect(live.current_appetite_breaches).toHaveLength(2);
      expect(live.controls[0].total_effectiveness).toBe('Not Effective');
      const after = (await call(w.admin, 'GET', `/bras/${braId}/snapshots/${snapshotId}`)).json().data;
      expect(after).toEqual(before);
      expect(after.content.summary.risks_above_appetite).toBe(1);
      expect(after.methodology.appetite.threshold_value).toBe(10);
      expect(after.content.controls[0].total_effectiveness).toBe('Highly Effective');
    });

    it('the database refuses UPDATE, DELETE and TRUNCATE of snapshots', async () => {
      await expect(sql`update bra_snapshots set kind = 'created' where id = ${snapshotId}`.execute(ctx.db)).rejects.toThrow(/immutable/);
      await expect(sql`update bra_snapshots set content = '{}'::jsonb where id = ${snapshotId}`.execute(ctx.db)).rejects.toThrow(/immutable/);
      await expect(sql`delete from bra_snapshots where id = ${snapshotId}`.execute(ctx.db)).rejects.toThrow(/immutable/);
      await expect(sql`truncate bra_snapshots cascade`.execute(ctx.db)).rejects.toThrow(/immutable/);
      expect(await ctx.db.selectFrom('bra_snapshots').select('id').where('bra_id', '=', braId).execute()).toHaveLength(2);
    });

    it('unassigned readers 403, other enterprises 404, a snapshot of another BRA or an unknown id 404', async () => {
      await expectAccessDenied(ctx, w.outsideReviewer, await call(w.outsideReviewer, 'GET', `/bras/${braId}/snapshots`), 'bras.snapshot.list');
      await expectAccessDenied(ctx, w.outsideReviewer, await call(w.outsideReviewer, 'GET', `/bras/${braId}/snapshots/${snapshotId}`), 'bras.snapshot.get');
      expect((await call(w.otherAdmin, 'GET', `/bras/${braId}/snapshots`)).statusCode).toBe(404);
      expect((await call(w.otherAdmin, 'GET', `/bras/${braId}/snapshots/${snapshotId}`)).statusCode).toBe(404);
      const another = await createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: w.entity.id });
      expect((await call(w.admin, 'GET', `/bras/${another.id}/snapshots/${snapshotId}`)).statusCode).toBe(404);
      expect((await call(w.admin, 'GET', `/bras/${braId}/snapshots/${randomUUID()}`)).statusCode).toBe(404);
    });
  });
});
