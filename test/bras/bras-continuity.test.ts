import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sessionHeaders } from '../support/api.js';
import { createTestContext } from '../support/app.js';
import { auditEntries, countAuditEntries } from '../support/audit.js';
import { insertAction } from '../support/actions-factories.js';
import { addScenarioLink, createBra, createSubControl, linkControl, rateBoth } from '../support/bras-factories.js';
import { cast } from '../support/cast.js';
import { createBusinessUnit, createLegalEntity, type TestUser } from '../support/factories.js';

/** Roll-forward, the snapshots a rolled-forward BRA inherits, and the diff between snapshots (issue 35). */
describe('BRA continuity: roll-forward, snapshots and diff', async () => {
  const ctx = await createTestContext();
  const w = await cast(ctx);
  const headersOf = sessionHeaders(ctx);
  const { call } = w;
  const ok = async (user: TestUser, method: 'GET' | 'POST', url: string, payload?: unknown, status = 200) => {
    const response = await call(user, method, url, payload);
    expect(response.statusCode, response.body).toBe(status);
    return response.json().data;
  };
  const rollForward = (user: TestUser, braId: string, body: Record<string, unknown> = {}) =>
    call(user, 'POST', `/bras/${braId}/roll-forward`, { name: `FY2027 ${randomUUID().slice(0, 8)}`, period: 'FY2027', ...body });

  /**
   * An approved BRA of the entity's unit: scenario A (4×4 / 3×3) with a control on it, B (3×3 / 2×2), C
   * excluded and unrated, a BRA-wide control; an open action on A, a completed one and an archived one.
   */
  async function approvedBra(businessUnitId: string = w.unit.id) {
    const bra = await createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: w.entity.id, businessUnitId, status: 'in_progress', createdBy: w.admin.id });
    const a = await addScenarioLink(ctx, bra);
    const b = await addScenarioLink(ctx, bra);
    const c = await addScenarioLink(ctx, bra, false);
    await rateBoth(ctx, a, [4, 4], [3, 3]);
    await rateBoth(ctx, b, [3, 3], [2, 2]);
    const onA = await createSubControl(ctx, w.enterprise.id, { tod: 'A', toe: '1', effectiveness: 'Highly Effective' });
    await ctx.db.insertInto('bra_controls').values({ enterprise_id: w.enterprise.id, bra_id: bra.id, sub_control_id: onA.subControl.id, bra_risk_scenario_id: a.id }).execute();
    const wide = await createSubControl(ctx, w.enterprise.id);
    await linkControl(ctx, bra, wide.subControl.id);
    const open = await insertAction(ctx, { enterpriseId: w.enterprise.id, braId: bra.id, linkId: a.id, status: 'in_progress' });
    await insertAction(ctx, { enterpriseId: w.enterprise.id, braId: bra.id, linkId: b.id, status: 'completed' });
    await insertAction(ctx, { enterpriseId: w.enterprise.id, braId: bra.id, archived: true });
    const approval = await ok(w.admin, 'POST', `/bras/${bra.id}/approve`, { final_comment: 'Accepted' });
    return { bra, a, b, c, open, onA, wide, approvalSnapshot: approval.snapshot_id as string };
  }

  describe('roll-forward (POST /bras/{id}/roll-forward)', () => {
    it('creates a draft in the same place with the same scenarios and control links, no ratings, each previous residual rating carried', async () => {
      const source = await approvedBra();
      const response = await rollForward(w.assessor, source.bra.id, { start_date: '2027-01-04' });
      expect(response.statusCode, response.body).toBe(201);
      const created = response.json().data;
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
      const byCatalogue = new Map(created.scenarios.map((s: { risk_scenario_id: string }) => [s.risk_scenario_id, s]));
      expect(byCatalogue.size).toBe(3);
      expect(byCatalogue.get(source.a.risk_scenario_id)).toMatchObject({
        included: true,
        inherent_rating: null,
        residual_rating: null,
        previous_residual_rating: { impact_score: 3, likelihood_score: 3, risk_score: 9, risk_level: 'Medium' },
      });
      expect(byCatalogue.get(source.b.risk_scenario_id)).toMatchObject({ previous_residual_rating: { risk_score: 4, risk_level: 'Low' } });
      expect(byCatalogue.get(source.c.risk_scenario_id)).toMatchObject({ included: false, previous_residual_rating: null });
      const newA = byCatalogue.get(source.a.risk_scenario_id) as { id: string };
      expect(created.controls.map((c: { sub_control_id: string; bra_risk_scenario_id: string | null }) => [c.sub_control_id, c.bra_risk_scenario_id]).sort()).toEqual(
        [
          [source.onA.subControl.id, newA.id],
          [source.wide.subControl.id, null],
        ].sort(),
      );
      // Only the open action, pointing at the new link of its scenario for re-linking.
      expect(created.open_actions).toEqual([
        expect.objectContaining({ id: source.open.id, status: 'in_progress', bra_risk_scenario_id: source.a.id, risk_scenario_id: source.a.risk_scenario_id, new_bra_risk_scenario_id: newA.id }),
      ]);
      // The get and the list name the source; the source itself is unchanged.
      expect((await ok(w.reviewer, 'GET', `/bras/${created.id}`)).rolled_from_bra_id).toBe(source.bra.id);
      const listed = (await ok(w.admin, 'GET', `/bras?legal_entity_id=${w.entity.id}&page_size=100`)) as { id: string; rolled_from_bra_id: string | null }[];
      expect(listed.find((b) => b.id === created.id)?.rolled_from_bra_id).toBe(source.bra.id);
      expect(listed.find((b) => b.id === source.bra.id)?.rolled_from_bra_id).toBeNull();
      expect((await ok(w.admin, 'GET', `/bras/${source.bra.id}`)).status).toBe('approved');
      // The assessor who rolled it forward may work on it.
      await ok(w.assessor, 'POST', `/bras/${created.id}/ratings`, { bra_risk_scenario_id: newA.id, rating_type: 'residual', impact_score: 2, likelihood_score: 2 }, 201);
    });

    it('audits the creation of the BRA and each scenario and control link added, in the transaction that made them', async () => {
      const source = await approvedBra();
      const created = (await rollForward(w.admin, source.bra.id)).json().data;
      const entries = await auditEntries(ctx, { entityType: 'bra', entityId: created.id });
      expect(entries.map((e) => e.action_type)).toEqual(['create', 'update', 'update', 'update', 'update', 'update']);
      const details = entries.map((e) => e.action_details as Record<string, unknown>);
      expect(details[0]).toMatchObject({ rolled_from_bra_id: source.bra.id, rolled_from_snapshot_id: source.approvalSnapshot, period: 'FY2027' });
      expect(details.slice(1).map((d) => d['change']).sort()).toEqual(['control_linked', 'control_linked', 'scenario_added', 'scenario_added', 'scenario_added']);
      expect(details.slice(1).every((d) => d['cause'] === 'roll_forward')).toBe(true);
    });

    it('refuses a BRA that is not approved (409 INVALID_STATE), whatever its state, and creates nothing', async () => {
      for (const status of ['draft', 'in_progress', 'under_review', 'cancelled'] as const) {
        const bra = await createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: w.entity.id, status });
        const response = await rollForward(w.admin, bra.id, { name: `Next of ${bra.id}` });
        expect(response.statusCode, status).toBe(409);
        expect(response.json().code).toBe('INVALID_STATE');
        expect(await ctx.db.selectFrom('bras').select('id').where('rolled_from_bra_id', '=', bra.id).execute()).toEqual([]);
      }
    });

    it('refuses a BRA whose business unit was archived since (400 INVALID_REFERENCE, as POST /bras): a new BRA cannot take it', async () => {
      const unit = await createBusinessUnit(ctx, w.enterprise.id, w.entity.id);
      const source = await approvedBra(unit.id);
      await ctx.db.updateTable('business_units').set({ archived_at: new Date() }).where('id', '=', unit.id).execute();
      const response = await rollForward(w.admin, source.bra.id);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ code: 'INVALID_REFERENCE', details: { field: 'business_unit_id' } });
      expect(await ctx.db.selectFrom('bras').select('id').where('rolled_from_bra_id', '=', source.bra.id).execute()).toEqual([]);
    });

    it('an archived legal entity or business unit gets one answer from POST /bras and from a roll-forward: 400 INVALID_REFERENCE naming the field, nothing written', async () => {
      const entity = await createLegalEntity(ctx, w.enterprise.id);
      const unit = await createBusinessUnit(ctx, w.enterprise.id, entity.id);
      const approvedIn = async (businessUnitId: string | null) => {
        const bra = await createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: entity.id, businessUnitId, status: 'in_progress', createdBy: w.admin.id });
        await ok(w.admin, 'POST', `/bras/${bra.id}/approve`, {});
        return bra;
      };
      const [ofEntity, ofUnit] = [await approvedIn(null), await approvedIn(unit.id)];
      const create = (businessUnitId?: string) =>
        call(w.admin, 'POST', '/bras', { name: `New ${randomUUID().slice(0, 8)}`, legal_entity_id: entity.id, period: 'FY2027', assessor: 'A', ...(businessUnitId ? { business_unit_id: businessUnitId } : {}) });
      const answer = (response: Awaited<ReturnType<typeof call>>) => [response.statusCode, response.json().code, response.json().details];
      const before = await countAuditEntries(ctx, w.enterprise.id);

      await ctx.db.updateTable('business_units').set({ archived_at: new Date() }).where('id', '=', unit.id).execute();
      const unitAnswers = [answer(await create(unit.id)), answer(await rollForward(w.admin, ofUnit.id))];
      expect(unitAnswers).toEqual([
        [400, 'INVALID_REFERENCE', { field: 'business_unit_id' }],
        [400, 'INVALID_REFERENCE', { field: 'business_unit_id' }],
      ]);

      await ctx.db.updateTable('legal_entities').set({ archived_at: new Date() }).where('id', '=', entity.id).execute();
      const entityAnswers = [answer(await create()), answer(await rollForward(w.admin, ofEntity.id)), answer(await rollForward(w.admin, ofUnit.id))];
      expect(entityAnswers).toEqual([
        [400, 'INVALID_REFERENCE', { field: 'legal_entity_id' }],
        [400, 'INVALID_REFERENCE', { field: 'legal_entity_id' }],
        [400, 'INVALID_REFERENCE', { field: 'legal_entity_id' }],
      ]);
      expect(await ctx.db.selectFrom('bras').select('id').where('legal_entity_id', '=', entity.id).execute()).toHaveLength(2);
      expect(await countAuditEntries(ctx, w.enterprise.id)).toBe(before);
    });

    it('D5: reviewers and assessors elsewhere 403; another enterprise 404; a name taken 409; an unknown member 422', async () => {
      const source = await approvedBra();
      expect((await rollForward(w.reviewer, source.bra.id)).statusCode).toBe(403);
      expect((await rollForward(w.outsideAssessor, source.bra.id)).statusCode).toBe(403);
      expect((await rollForward(w.otherAdmin, source.bra.id)).statusCode).toBe(404);
      expect((await rollForward(w.admin, source.bra.id, { name: source.bra.name })).json().code).toBe('CONFLICT');
      expect((await rollForward(w.admin, source.bra.id, { status: 'approved' })).statusCode).toBe(422);
      expect((await call(w.admin, 'POST', `/bras/${source.bra.id}/roll-forward`, { name: 'No period' })).statusCode).toBe(422);
    });

    it('an Idempotency-Key replays the first answer and makes one BRA', async () => {
      const source = await approvedBra();
      const key = randomUUID();
      const body = { name: `Once ${key.slice(0, 8)}`, period: 'FY2027' };
      const first = await call(w.admin, 'POST', `/bras/${source.bra.id}/roll-forward`, body, { 'idempotency-key': key });
      const second = await call(w.admin, 'POST', `/bras/${source.bra.id}/roll-forward`, body, { 'idempotency-key': key });
      expect(first.statusCode, first.body).toBe(201);
      expect(second.statusCode).toBe(201);
      expect(second.json().data.id).toBe(first.json().data.id);
      expect(await ctx.db.selectFrom('bras').select('id').where('rolled_from_bra_id', '=', source.bra.id).execute()).toHaveLength(1);
    });
  });

  describe('snapshots (GET /bras/{id}/snapshots)', () => {
    it('a rolled-forward BRA lists its own snapshots and the approval snapshot it started from, with bra_id, kind, created_at, created_by', async () => {
      const source = await approvedBra();
      const created = (await rollForward(w.assessor, source.bra.id)).json().data;
      const listed = await ok(w.reviewer, 'GET', `/bras/${created.id}/snapshots`);
      expect(listed).toEqual([
        { id: expect.any(String), bra_id: created.id, kind: 'created', created_at: expect.any(String), created_by: w.assessor.id, created_by_user: { id: w.assessor.id, full_name: w.assessor.fullName } },
        { id: source.approvalSnapshot, bra_id: source.bra.id, kind: 'approved', created_at: expect.any(String), created_by: w.admin.id, created_by_user: { id: w.admin.id, full_name: w.admin.fullName } },
      ]);
      // Readable through the new BRA; the source's own list is unchanged.
      expect((await ok(w.reviewer, 'GET', `/bras/${created.id}/snapshots/${source.approvalSnapshot}`)).bra_id).toBe(source.bra.id);
      expect((await ok(w.admin, 'GET', `/bras/${source.bra.id}/snapshots`)).map((s: { bra_id: string }) => s.bra_id)).toEqual([source.bra.id]);
      // Another BRA's snapshot is still not reachable through an unrelated BRA.
      const unrelated = await createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: w.entity.id });
      expect((await call(w.admin, 'GET', `/bras/${unrelated.id}/snapshots/${source.approvalSnapshot}`)).statusCode).toBe(404);
    });
  });

  describe('diff (GET /bras/{id}/diff)', () => {
    const diff = (user: TestUser, braId: string, from: string, to: string) => call(user, 'GET', `/bras/${braId}/diff?from=${from}&to=${to}`);

    it('a snapshot diffed with itself is empty', async () => {
      const source = await approvedBra();
      const response = await diff(w.reviewer, source.bra.id, source.approvalSnapshot, source.approvalSnapshot);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().data).toMatchObject({
        empty: true,
        scenarios: { added: [], removed: [], included: [], excluded: [] },
        ratings: [],
        controls: { added: [], removed: [], effectiveness_changed: [] },
        summary: [],
        methodology: { risk_bands: null, appetite: null },
      });
      // An approved BRA against its own live content: nothing changed either.
      expect((await diff(w.admin, source.bra.id, source.approvalSnapshot, 'current')).json().data.empty).toBe(true);
    });

    it('approval N-1 → N after a roll-forward shows exactly the rating changes made', async () => {
      const source = await approvedBra();
      const created = (await rollForward(w.admin, source.bra.id)).json().data;
      const link = (rs: string) => created.scenarios.find((s: { risk_scenario_id: string }) => s.risk_scenario_id === rs).id as string;
      const rate = (l: string, type: string, impact: number, likelihood: number) =>
        ok(w.admin, 'POST', `/bras/${created.id}/ratings`, { bra_risk_scenario_id: l, rating_type: type, impact_score: impact, likelihood_score: likelihood }, 201);
      // Just rolled forward: the same scenarios and controls; every rating gone (a reference is not a rating).
      const before = (await diff(w.admin, created.id, source.approvalSnapshot, 'current')).json().data;
      expect(before.scenarios).toEqual({ added: [], removed: [], included: [], excluded: [] });
      expect(before.controls).toEqual({ added: [], removed: [], effectiveness_changed: [] });
      expect(before.ratings).toHaveLength(4);
      expect(before.ratings.every((r: { to: unknown }) => r.to === null)).toBe(true);
      expect(before.from).toMatchObject({ kind: 'approved', snapshot_id: source.approvalSnapshot, bra_id: source.bra.id });
      expect(before.to).toMatchObject({ kind: 'current', snapshot_id: null, bra_id: created.id });
      // The new period: A's residual improves, B's inherent worsens, the rest as before.
      await rate(link(source.a.risk_scenario_id), 'inherent', 4, 4);
      await rate(link(source.a.risk_scenario_id), 'residual', 2, 3);
      await rate(link(source.b.risk_scenario_id), 'inherent', 3, 4);
      await rate(link(source.b.risk_scenario_id), 'residual', 2, 2);
      const approved = await ok(w.admin, 'POST', `/bras/${created.id}/approve`, {});
      const response = await diff(w.reviewer, created.id, source.approvalSnapshot, approved.snapshot_id);
      expect(response.statusCode, response.body).toBe(200);
      const changes = response.json().data;
      const nameOf = (rs: string) => created.scenarios.find((s: { risk_scenario_id: string }) => s.risk_scenario_id === rs).name as string;
      const expected = [
        {
          risk_scenario_id: source.a.risk_scenario_id,
          name: nameOf(source.a.risk_scenario_id),
          rating_type: 'residual',
          from: { impact_score: 3, likelihood_score: 3, risk_score: 9, risk_level: 'Medium' },
          to: { impact_score: 2, likelihood_score: 3, risk_score: 6, risk_level: 'Medium' },
        },
        {
          risk_scenario_id: source.b.risk_scenario_id,
          name: nameOf(source.b.risk_scenario_id),
          rating_type: 'inherent',
          from: { impact_score: 3, likelihood_score: 3, risk_score: 9, risk_level: 'Medium' },
          to: { impact_score: 3, likelihood_score: 4, risk_score: 12, risk_level: 'High' },
        },
      ].sort((x, y) => (x.name < y.name ? -1 : 1));
      expect(changes.ratings).toEqual(expected.map((e) => expect.objectContaining(e)));
      expect(changes).toMatchObject({
        empty: false,
        scenarios: { added: [], removed: [], included: [], excluded: [] },
        controls: { added: [], removed: [], effectiveness_changed: [] },
        summary: [],
        methodology: { risk_bands: null, appetite: null },
      });
    });

    it('shows scenarios added and excluded, control links added and removed, effectiveness and appetite changes against current', async () => {
      const source = await approvedBra();
      const created = (await rollForward(w.admin, source.bra.id)).json().data;
      const newB = created.scenarios.find((s: { risk_scenario_id: string }) => s.risk_scenario_id === source.b.risk_scenario_id).id;
      const wideLink = created.controls.find((c: { bra_risk_scenario_id: string | null }) => c.bra_risk_scenario_id === null).id;
      const scenario = await ctx.db.insertInto('risk_scenarios').values({ enterprise_id: w.enterprise.id, name: `Added ${randomUUID()}`, category: 'Cyber' }).returningAll().executeTakeFirstOrThrow();
      await ok(w.admin, 'POST', `/bras/${created.id}/scenarios`, { risk_scenario_id: scenario.id }, 201);
      const excluded = await ctx.app.inject({ method: 'PATCH', url: `/api/v1/bras/${created.id}/scenarios/${newB}`, headers: await headersOf(w.admin), payload: { included: false } });
      expect(excluded.statusCode, excluded.body).toBe(200);
      const unlinked = await ctx.app.inject({ method: 'DELETE', url: `/api/v1/bras/${created.id}/controls/${wideLink}`, headers: await headersOf(w.admin) });
      expect(unlinked.statusCode, unlinked.body).toBe(200);
      const added = await createSubControl(ctx, w.enterprise.id);
      await ok(w.admin, 'POST', `/bras/${created.id}/controls`, { sub_control_id: added.subControl.id, bra_risk_scenario_id: newB }, 201);
      await ctx.db.updateTable('sub_controls').set({ tod: 'E', toe: '5', total_effectiveness: 'Not Effective' }).where('id', '=', source.onA.subControl.id).execute();
      await ctx.db.updateTable('risk_appetites').set({ threshold_value: 12 }).where('enterprise_id', '=', w.enterprise.id).where('legal_entity_id', 'is', null).execute();
      try {
        const changes = (await diff(w.admin, created.id, source.approvalSnapshot, 'current')).json().data;
        expect(changes.scenarios.added).toEqual([expect.objectContaining({ risk_scenario_id: scenario.id, included: true, inherent_rating: null })]);
        expect(changes.scenarios.excluded).toEqual([expect.objectContaining({ risk_scenario_id: source.b.risk_scenario_id })]);
        expect(changes.controls.removed).toEqual([expect.objectContaining({ sub_control_id: source.wide.subControl.id, risk_scenario_id: null })]);
        expect(changes.controls.added).toEqual([expect.objectContaining({ sub_control_id: added.subControl.id, risk_scenario_id: source.b.risk_scenario_id })]);
        expect(changes.controls.effectiveness_changed).toEqual([
          expect.objectContaining({
            sub_control_id: source.onA.subControl.id,
            risk_scenario_id: source.a.risk_scenario_id,
            from: { tod: 'A', toe: '1', total_effectiveness: 'Highly Effective' },
            to: { tod: 'E', toe: '5', total_effectiveness: 'Not Effective' },
          }),
        ]);
        expect(changes.methodology.appetite).toEqual({ from: { risk_level: 'Medium', threshold_value: 9 }, to: { risk_level: 'Medium', threshold_value: 12 } });
        expect(changes.summary).toEqual(
          expect.arrayContaining([
            { field: 'assessed_scenarios', from: 2, to: 0, delta: -2 },
            { field: 'completion_percentage', from: 100, to: 0, delta: -100 },
          ]),
        );
      } finally {
        await ctx.db.updateTable('risk_appetites').set({ threshold_value: 9 }).where('enterprise_id', '=', w.enterprise.id).where('legal_entity_id', 'is', null).execute();
      }
    });

    it('a snapshot id not of this BRA is 400 INVALID_REFERENCE naming the parameter; another enterprise 404; a malformed `to` 400; D5 for reads', async () => {
      const source = await approvedBra();
      const other = await approvedBra();
      const unknown = await diff(w.admin, source.bra.id, randomUUID(), 'current');
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json()).toMatchObject({ code: 'INVALID_REFERENCE', details: { field: 'from' } });
      const otherBras = await diff(w.admin, source.bra.id, source.approvalSnapshot, other.approvalSnapshot);
      expect(otherBras.json()).toMatchObject({ code: 'INVALID_REFERENCE', details: { field: 'to' } });
      // The source BRA does not inherit its roll-forward's snapshots.
      const created = (await rollForward(w.admin, source.bra.id)).json().data;
      const createdSnapshot = (await ok(w.admin, 'GET', `/bras/${created.id}/snapshots`))[0].id;
      expect((await diff(w.admin, source.bra.id, createdSnapshot, 'current')).statusCode).toBe(400);
      expect((await diff(w.otherAdmin, source.bra.id, source.approvalSnapshot, 'current')).statusCode).toBe(404);
      const bad = await diff(w.admin, source.bra.id, source.approvalSnapshot, 'latest');
      expect(bad.statusCode, bad.body).toBe(400);
      expect(bad.json()).toMatchObject({ code: 'BAD_REQUEST', details: { fields: [{ field: 'to' }] } });
      expect((await diff(w.outsideReviewer, source.bra.id, source.approvalSnapshot, 'current')).statusCode).toBe(403);
      expect((await diff(w.unitAssessor, source.bra.id, source.approvalSnapshot, 'current')).statusCode).toBe(200);
    });
  });
});
