import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { NO_TERMS } from '../../src/platform/versions/change-terms.js';
import { insertAction, utcDate } from '../support/actions-factories.js';
import { auditEntries, countAuditEntries } from '../support/audit.js';
import { addScenarioLink, createBra, createBraWorld, createSubControl, linkControl, rateBoth } from '../support/bras-factories.js';
import { createBusinessUnit, createLegalEntity } from '../support/factories.js';
import { createServiceContext, refusalOf } from '../support/services.js';

/**
 * Roll-forward (history/roll-forward.service.ts and open-bra.ts), asked of the service: the next period of an
 * approved BRA, its content, the previous residual ratings it carries, the open actions to re-link, and its
 * refusals. The HTTP answers of the same rules are test/bras/bras-continuity.test.ts's.
 */
describe('roll-forward, on the service (bras.roll_forward)', async () => {
  const ctx = await createServiceContext();
  const w = await createBraWorld(ctx);
  const { transitions, content, rollForward } = ctx.services.bras;
  const admin = await ctx.callerOf(w.admin, 'bras.roll_forward');
  const assessor = await ctx.callerOf(w.assessor, 'bras.roll_forward');
  const approver = await ctx.callerOf(w.admin, 'bras.approve');
  const enterpriseId = w.enterprise.id;
  const next = (body: { name?: string; assessor?: string; start_date?: string } = {}) => ({ name: `FY2027 ${randomUUID().slice(0, 8)}`, period: 'FY2027', ...body });
  const rolledFrom = (braId: string) => ctx.db.selectFrom('bras').select('id').where('rolled_from_bra_id', '=', braId).execute();

  /**
   * An approved BRA: scenario A (4×4, residual 4×4 re-rated to 3×3) with a control on it, B (3×3 / 2×2), C
   * excluded and unrated, a BRA-wide control; on A an open action and an archived one, on B a completed one,
   * and an open action of the whole BRA due sooner. Approved through the transitions service.
   */
  async function approvedBra(place: { legalEntityId: string; businessUnitId: string | null } = { legalEntityId: w.entity.id, businessUnitId: w.unit.id }) {
    const bra = await createBra(ctx, { enterpriseId, ...place, status: 'in_progress', createdBy: w.admin.id });
    const [a, b, c] = [await addScenarioLink(ctx, bra), await addScenarioLink(ctx, bra), await addScenarioLink(ctx, bra, false)];
    await rateBoth(ctx, a, [4, 4], [4, 4]);
    await content.recordRating(await ctx.callerOf(w.admin, 'bras.rating.create'), bra.id, { bra_risk_scenario_id: a.id, rating_type: 'residual', impact_score: 3, likelihood_score: 3 }, NO_TERMS);
    await rateBoth(ctx, b, [3, 3], [2, 2]);
    const onA = await createSubControl(ctx, enterpriseId, { tod: 'A', toe: '1', effectiveness: 'Highly Effective' });
    await ctx.db.insertInto('bra_controls').values({ enterprise_id: enterpriseId, bra_id: bra.id, sub_control_id: onA.subControl.id, bra_risk_scenario_id: a.id }).execute();
    const wide = await createSubControl(ctx, enterpriseId);
    await linkControl(ctx, bra, wide.subControl.id);
    const openOnA = await insertAction(ctx, { enterpriseId, braId: bra.id, linkId: a.id, status: 'in_progress', dueDate: utcDate(60) });
    const openWide = await insertAction(ctx, { enterpriseId, braId: bra.id, status: 'created', dueDate: utcDate(10) });
    await insertAction(ctx, { enterpriseId, braId: bra.id, linkId: b.id, status: 'completed' });
    await insertAction(ctx, { enterpriseId, braId: bra.id, linkId: a.id, archived: true });
    const approval = await transitions.approve(approver, bra.id, { final_comment: 'Accepted' }, NO_TERMS);
    return { bra, a, b, c, onA, wide, openOnA, openWide, snapshotId: approval.data.snapshot_id };
  }

  it("opens a draft in the source's place with its scenarios and control links, no ratings, each link carrying the source's current residual rating", async () => {
    const source = await approvedBra();
    const created = await rollForward.rollForward(assessor, source.bra.id, next({ start_date: '2027-01-04' }), NO_TERMS);
    expect(created).toMatchObject({
      status: 'draft',
      legal_entity_id: w.entity.id,
      business_unit_id: w.unit.id,
      period: 'FY2027',
      assessor: 'Test Assessor',
      start_date: '2027-01-04',
      created_by: w.assessor.id,
      rolled_from_bra_id: source.bra.id,
      summary: { total_scenarios: 2, assessed_scenarios: 0, risks_above_appetite: 0, completion_percentage: 0 },
    });
    const byCatalogue = new Map(created.scenarios.map((s) => [s.risk_scenario_id, s]));
    expect([...byCatalogue.keys()].sort()).toEqual([source.a, source.b, source.c].map((l) => l.risk_scenario_id).sort());
    // The current residual rating is the reference, not the one it superseded; ratings themselves stay behind.
    expect(byCatalogue.get(source.a.risk_scenario_id)).toMatchObject({
      included: true,
      inherent_rating: null,
      residual_rating: null,
      previous_residual_rating: { impact_score: 3, likelihood_score: 3, risk_score: 9, risk_level: 'Medium' },
    });
    expect(byCatalogue.get(source.b.risk_scenario_id)).toMatchObject({ included: true, previous_residual_rating: { impact_score: 2, likelihood_score: 2, risk_score: 4, risk_level: 'Low' } });
    expect(byCatalogue.get(source.c.risk_scenario_id)).toMatchObject({ included: false, previous_residual_rating: null });
    expect(await ctx.db.selectFrom('bra_ratings').select('id').where('bra_id', '=', created.id).execute()).toEqual([]);
    // The control on A follows A to its new link; the BRA-wide one stays BRA-wide.
    const newA = byCatalogue.get(source.a.risk_scenario_id)!.id;
    expect(created.controls.map((c) => [c.sub_control_id, c.bra_risk_scenario_id]).sort()).toEqual(
      [
        [source.onA.subControl.id, newA],
        [source.wide.subControl.id, null],
      ].sort(),
    );
    // The source itself stays as it was approved.
    expect(await ctx.db.selectFrom('bras').select('status').where('id', '=', source.bra.id).executeTakeFirstOrThrow()).toEqual({ status: 'approved' });
  });

  it('lists the open actions only (not completed, not archived), oldest due first, each pointing at the new link of its scenario', async () => {
    const source = await approvedBra();
    const created = await rollForward.rollForward(admin, source.bra.id, next(), NO_TERMS);
    const newA = created.scenarios.find((s) => s.risk_scenario_id === source.a.risk_scenario_id)!.id;
    expect(created.open_actions).toEqual([
      expect.objectContaining({ id: source.openWide.id, status: 'created', bra_risk_scenario_id: null, risk_scenario_id: null, new_bra_risk_scenario_id: null }),
      expect.objectContaining({ id: source.openOnA.id, status: 'in_progress', bra_risk_scenario_id: source.a.id, risk_scenario_id: source.a.risk_scenario_id, new_bra_risk_scenario_id: newA }),
    ]);
  });

  it("audits the BRA's create (naming the source and its approval snapshot), then one update per link copied, under the caller's operation", async () => {
    const source = await approvedBra();
    const created = await rollForward.rollForward(admin, source.bra.id, next(), NO_TERMS);
    const entries = await auditEntries(ctx, { entityType: 'bra', entityId: created.id });
    expect(entries.map((e) => e.action_type)).toEqual(['create', 'update', 'update', 'update', 'update', 'update']);
    const details = entries.map((e) => e.action_details as Record<string, unknown>);
    expect(details[0]).toMatchObject({ operation: 'bras.roll_forward', rolled_from_bra_id: source.bra.id, rolled_from_snapshot_id: source.snapshotId, period: 'FY2027' });
    expect(details.slice(1).map((d) => d['change']).sort()).toEqual(['control_linked', 'control_linked', 'scenario_added', 'scenario_added', 'scenario_added']);
    expect(details.every((d) => d['operation'] === 'bras.roll_forward')).toBe(true);
    expect(details.slice(1).every((d) => d['cause'] === 'roll_forward')).toBe(true);
  });

  it("joins the caller's unit of work: rolled back with it, it leaves no BRA, link, snapshot or audit entry", async () => {
    const source = await approvedBra();
    const before = await countAuditEntries(ctx, enterpriseId);
    const created = await ctx.inRequestWork((terms) => rollForward.rollForward(admin, source.bra.id, next(), terms), { rollback: true });
    expect(created.rolled_from_bra_id).toBe(source.bra.id);
    expect(await rolledFrom(source.bra.id)).toEqual([]);
    expect(await ctx.db.selectFrom('bra_risk_scenarios').select('id').where('bra_id', '=', created.id).execute()).toEqual([]);
    expect(await ctx.db.selectFrom('bra_snapshots').select('id').where('bra_id', '=', created.id).execute()).toEqual([]);
    expect(await countAuditEntries(ctx, enterpriseId)).toBe(before);
    // Committed, the same work keeps all of it.
    const kept = await ctx.inRequestWork((terms) => rollForward.rollForward(admin, source.bra.id, next(), terms));
    expect(await rolledFrom(source.bra.id)).toEqual([{ id: kept.id }]);
  });

  it('refuses a BRA that is not approved, whatever its state (INVALID_STATE), and writes nothing', async () => {
    const before = await countAuditEntries(ctx, enterpriseId);
    for (const status of ['draft', 'in_progress', 'under_review', 'cancelled'] as const) {
      const bra = await createBra(ctx, { enterpriseId, legalEntityId: w.entity.id, status });
      expect(await refusalOf(rollForward.rollForward(admin, bra.id, next(), NO_TERMS)), status).toMatchObject({ code: 'INVALID_STATE', status: 409 });
      expect(await rolledFrom(bra.id)).toEqual([]);
    }
    expect(await countAuditEntries(ctx, enterpriseId)).toBe(before);
  });

  it('refuses a BRA whose legal entity, or business unit, was archived since (INVALID_REFERENCE naming the field), and writes nothing', async () => {
    const entity = await createLegalEntity(ctx, enterpriseId);
    const unit = await createBusinessUnit(ctx, enterpriseId, entity.id);
    const ofEntity = await approvedBra({ legalEntityId: entity.id, businessUnitId: null });
    const ofUnit = await approvedBra({ legalEntityId: entity.id, businessUnitId: unit.id });
    const organiser = await ctx.callerOf(w.admin, 'legal_entities.archive');
    const unitOrganiser = await ctx.callerOf(w.admin, 'business_units.archive');
    const entries = () => countAuditEntries(ctx, enterpriseId);

    await ctx.services['legal-entities'].archiveBusinessUnit(unitOrganiser, unit.id, NO_TERMS);
    const afterUnit = await entries();
    expect(await refusalOf(rollForward.rollForward(admin, ofUnit.bra.id, next(), NO_TERMS))).toMatchObject({ code: 'INVALID_REFERENCE', details: { field: 'business_unit_id' } });
    expect(await entries()).toBe(afterUnit);

    // Archived through the service, as an admin would: approved BRAs do not hold an entity back.
    await ctx.services['legal-entities'].archive(organiser, entity.id, NO_TERMS);
    const afterEntity = await entries();
    for (const source of [ofEntity, ofUnit]) {
      expect(await refusalOf(rollForward.rollForward(admin, source.bra.id, next(), NO_TERMS))).toMatchObject({ code: 'INVALID_REFERENCE', details: { field: 'legal_entity_id' } });
      expect(await rolledFrom(source.bra.id)).toEqual([]);
    }
    expect(await entries()).toBe(afterEntity);
  });

  it('refuses a reviewer and an assessor of another entity (FORBIDDEN) and another enterprise (NOT_FOUND)', async () => {
    const source = await approvedBra();
    expect(await refusalOf(rollForward.rollForward(await ctx.callerOf(w.reviewer), source.bra.id, next(), NO_TERMS))).toMatchObject({ code: 'FORBIDDEN' });
    expect(await refusalOf(rollForward.rollForward(await ctx.callerOf(w.outsideAssessor), source.bra.id, next(), NO_TERMS))).toMatchObject({ code: 'FORBIDDEN' });
    expect(await refusalOf(rollForward.rollForward(await ctx.callerOf(w.otherAdmin), source.bra.id, next(), NO_TERMS))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await rolledFrom(source.bra.id)).toEqual([]);
  });
});
