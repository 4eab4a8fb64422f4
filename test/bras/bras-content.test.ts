import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { auditEntries, expectAccessDenied } from '../support/audit.js';
import { addScenarioLink, createBra, createRiskScenario, createSubControl, linkControl } from '../support/bras-factories.js';
import { cast } from '../support/cast.js';

/** A BRA's scenarios (D6.4), ratings (D6.5) and control links (D6.6); the automatic draft → in_progress (D6.7). */
describe('BRA scenarios, ratings and control links', async () => {
  const ctx = await createTestContext();
  const w = await cast(ctx);
  const { call } = w;
  const newBra = (values: { status?: 'draft' | 'in_progress' | 'under_review' | 'approved' | 'cancelled'; createdBy?: string } = {}) =>
    createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: w.entity.id, createdBy: values.createdBy ?? w.assessor.id, status: values.status ?? 'draft' });
  const statusOf = async (id: string) => (await ctx.db.selectFrom('bras').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

  describe('scenarios (D6.4)', () => {
    it('adding a catalogue scenario answers 201 with the element (ratings null), moves a draft to in_progress and is audited as an update of the bra', async () => {
      const bra = await newBra();
      const scenario = await createRiskScenario(ctx, w.enterprise.id, 'Internal fraud');
      const response = await call(w.assessor, 'POST', `/bras/${bra.id}/scenarios`, { risk_scenario_id: scenario.id });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().data).toEqual({
        id: expect.any(String),
        risk_scenario_id: scenario.id,
        name: scenario.name,
        category: 'Internal fraud',
        included: true,
        inherent_rating: null,
        residual_rating: null,
        previous_residual_rating: null,
      });
      expect(await statusOf(bra.id)).toBe('in_progress');
      const entries = await auditEntries(ctx, { entityId: bra.id, entityType: 'bra', action: 'update' });
      expect(entries.map((e) => e.action_details)).toEqual([
        expect.objectContaining({ operation: 'bras.scenario.add', change: 'scenario_added', risk_scenario_id: scenario.id }),
        expect.objectContaining({ operation: 'bras.scenario.add', status: { from: 'draft', to: 'in_progress' } }),
      ]);
      const list = await call(w.reviewer, 'GET', `/bras/${bra.id}/scenarios`);
      expect(list.statusCode).toBe(200);
      expect(list.json().data).toEqual([response.json().data]);
    });

    it('the same scenario twice → 409 CONFLICT; an unknown or foreign scenario → 400 INVALID_REFERENCE', async () => {
      const bra = await newBra();
      const scenario = await createRiskScenario(ctx, w.enterprise.id);
      expect((await call(w.admin, 'POST', `/bras/${bra.id}/scenarios`, { risk_scenario_id: scenario.id })).statusCode).toBe(201);
      const twice = await call(w.admin, 'POST', `/bras/${bra.id}/scenarios`, { risk_scenario_id: scenario.id });
      expect(twice.statusCode).toBe(409);
      expect(twice.json()).toMatchObject({ code: 'CONFLICT' });
      const foreign = await createRiskScenario(ctx, w.other.id);
      for (const id of [foreign.id, randomUUID()]) {
        const response = await call(w.admin, 'POST', `/bras/${bra.id}/scenarios`, { risk_scenario_id: id });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({ code: 'INVALID_REFERENCE', details: { field: 'risk_scenario_id' } });
      }
    });

    it('PATCH included excludes and re-includes a scenario; a link of another BRA → 404', async () => {
      const bra = await newBra({ status: 'in_progress' });
      const link = await addScenarioLink(ctx, bra);
      const excluded = await call(w.assessor, 'PATCH', `/bras/${bra.id}/scenarios/${link.id}`, { included: false });
      expect(excluded.statusCode, excluded.body).toBe(200);
      expect(excluded.json().data).toMatchObject({ id: link.id, included: false });
      const otherBra = await newBra({ status: 'in_progress' });
      expect((await call(w.admin, 'PATCH', `/bras/${otherBra.id}/scenarios/${link.id}`, { included: true })).statusCode).toBe(404);
      expect((await call(w.admin, 'PATCH', `/bras/${bra.id}/scenarios/${link.id}`, { included: 'yes' })).statusCode).toBe(422);
    });

    it('defaults included to true and takes included=false at creation', async () => {
      const bra = await newBra();
      const scenario = await createRiskScenario(ctx, w.enterprise.id);
      const response = await call(w.admin, 'POST', `/bras/${bra.id}/scenarios`, { risk_scenario_id: scenario.id, included: false });
      expect(response.json().data.included).toBe(false);
    });
  });

  describe('ratings (D6.5, D6.1)', () => {
    it('records a rating with its score and level; a second one of the same link and type supersedes the first, which is kept (?history=true)', async () => {
      const bra = await newBra();
      const link = await addScenarioLink(ctx, bra);
      const first = await call(w.assessor, 'POST', `/bras/${bra.id}/ratings`, {
        bra_risk_scenario_id: link.id,
        rating_type: 'inherent',
        impact_score: 4,
        likelihood_score: 4,
        justification: 'Frequent attempts',
      });
      expect(first.statusCode, first.body).toBe(201);
      expect(first.json().data).toEqual({
        id: expect.any(String),
        bra_risk_scenario_id: link.id,
        rating_type: 'inherent',
        impact_score: 4,
        likelihood_score: 4,
        risk_score: 16,
        risk_level: 'Very High',
        justification: 'Frequent attempts',
        created_by: w.assessor.id,
        created_by_user: { id: w.assessor.id, full_name: w.assessor.fullName },
        created_at: expect.stringMatching(/Z$/),
        superseded_at: null,
      });
      expect(await statusOf(bra.id)).toBe('in_progress');
      const second = await call(w.assessor, 'POST', `/bras/${bra.id}/ratings`, { bra_risk_scenario_id: link.id, rating_type: 'inherent', impact_score: 3, likelihood_score: 3 });
      expect(second.json().data).toMatchObject({ risk_score: 9, risk_level: 'Medium', justification: null });
      await call(w.assessor, 'POST', `/bras/${bra.id}/ratings`, { bra_risk_scenario_id: link.id, rating_type: 'residual', impact_score: 2, likelihood_score: 2 });

      const current = (await call(w.reviewer, 'GET', `/bras/${bra.id}/ratings`)).json().data;
      expect(current.map((r: { id: string }) => r.id).sort()).toHaveLength(2);
      expect(current.map((r: { risk_score: number }) => r.risk_score).sort()).toEqual([4, 9]);
      const history = (await call(w.reviewer, 'GET', `/bras/${bra.id}/ratings?history=true`)).json().data;
      expect(history).toHaveLength(3);
      expect(history.map((r: { created_by_user: unknown }) => r.created_by_user)).toEqual(history.map(() => ({ id: w.assessor.id, full_name: w.assessor.fullName })));
      expect(history.find((r: { id: string }) => r.id === first.json().data.id)).toMatchObject({ superseded_at: expect.stringMatching(/Z$/) });
      const scenarios = (await call(w.reviewer, 'GET', `/bras/${bra.id}/scenarios`)).json().data;
      expect(scenarios[0]).toMatchObject({
        inherent_rating: { impact_score: 3, likelihood_score: 3, risk_score: 9, risk_level: 'Medium' },
        residual_rating: { impact_score: 2, likelihood_score: 2, risk_score: 4, risk_level: 'Low' },
      });
      const entries = await auditEntries(ctx, { entityType: 'bra_rating', action: 'create', userId: w.assessor.id });
      const mine = entries.filter((e) => e.action_details['bra_id'] === bra.id);
      expect(mine).toHaveLength(3);
      expect(mine[1]!.action_details).toMatchObject({ operation: 'bras.rating.create', supersedes: first.json().data.id, risk_score: 9 });
    });

    it('scores outside 1–5, a bad type or a missing field → 422; a link of another BRA → 400 INVALID_REFERENCE', async () => {
      const bra = await newBra();
      const link = await addScenarioLink(ctx, bra);
      const valid = { bra_risk_scenario_id: link.id, rating_type: 'residual', impact_score: 2, likelihood_score: 3 };
      for (const payload of [
        { ...valid, impact_score: 0 },
        { ...valid, likelihood_score: 6 },
        { ...valid, impact_score: 2.5 },
        { ...valid, rating_type: 'target' },
        { ...valid, risk_score: 6 },
        { rating_type: 'residual', impact_score: 2, likelihood_score: 3 },
      ]) {
        expect((await call(w.admin, 'POST', `/bras/${bra.id}/ratings`, payload)).statusCode, JSON.stringify(payload)).toBe(422);
      }
      const otherLink = await addScenarioLink(ctx, await newBra());
      const response = await call(w.admin, 'POST', `/bras/${bra.id}/ratings`, { ...valid, bra_risk_scenario_id: otherLink.id });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'INVALID_REFERENCE', details: { field: 'bra_risk_scenario_id' } });
      expect(await statusOf(bra.id)).toBe('draft');
    });

    it('the database keeps one current rating per link and type, and the score and level consistent with D6.1', async () => {
      const bra = await newBra();
      const link = await addScenarioLink(ctx, bra);
      const row = { enterprise_id: bra.enterprise_id, bra_id: bra.id, bra_risk_scenario_id: link.id, rating_type: 'inherent' as const };
      await ctx.db.insertInto('bra_ratings').values({ ...row, impact_score: 2, likelihood_score: 2, risk_score: 4, risk_level: 'Low' }).execute();
      await expect(ctx.db.insertInto('bra_ratings').values({ ...row, impact_score: 2, likelihood_score: 2, risk_score: 4, risk_level: 'Low' }).execute()).rejects.toThrow();
      await expect(ctx.db.insertInto('bra_ratings').values({ ...row, rating_type: 'residual', impact_score: 2, likelihood_score: 3, risk_score: 5, risk_level: 'Low' }).execute()).rejects.toThrow();
      await expect(ctx.db.insertInto('bra_ratings').values({ ...row, rating_type: 'residual', impact_score: 2, likelihood_score: 3, risk_score: 7, risk_level: 'Medium' }).execute()).rejects.toThrow();
      const otherBra = await newBra();
      await expect(ctx.db.insertInto('bra_ratings').values({ ...row, bra_id: otherBra.id, rating_type: 'residual', impact_score: 1, likelihood_score: 1, risk_score: 1, risk_level: 'Low' }).execute()).rejects.toThrow();
    });
  });

  describe('control links (D6.6)', () => {
    it('links a sub-control with its live ToD, ToE, effectiveness and key control name; the same one twice → 409', async () => {
      const bra = await newBra();
      const { keyControl, subControl } = await createSubControl(ctx, w.enterprise.id, { tod: 'B', toe: '2', effectiveness: 'Effective' });
      const response = await call(w.assessor, 'POST', `/bras/${bra.id}/controls`, { sub_control_id: subControl.id });
      expect(response.statusCode, response.body).toBe(201);
      const element = {
        id: expect.any(String),
        bra_risk_scenario_id: null,
        key_control_id: keyControl.id,
        key_control_name: keyControl.name,
        sub_control_id: subControl.id,
        sub_control_name: subControl.name,
        tod: 'B',
        toe: '2',
        total_effectiveness: 'Effective',
      };
      expect(response.json().data).toEqual(element);
      expect(await statusOf(bra.id)).toBe('in_progress');
      const twice = await call(w.assessor, 'POST', `/bras/${bra.id}/controls`, { sub_control_id: subControl.id });
      expect(twice.statusCode).toBe(409);
      expect(twice.json()).toMatchObject({ code: 'CONFLICT' });
      // Later test results show through: the link reads the sub-control live.
      await ctx.db.updateTable('sub_controls').set({ tod: 'D', toe: '4', total_effectiveness: 'Not Effective' }).where('id', '=', subControl.id).execute();
      const list = await call(w.reviewer, 'GET', `/bras/${bra.id}/controls`);
      expect(list.json().data).toEqual([{ ...element, id: response.json().data.id, tod: 'D', toe: '4', total_effectiveness: 'Not Effective' }]);
      const [entry] = (await auditEntries(ctx, { entityId: bra.id, action: 'update' })).filter((e) => e.action_details['change'] === 'control_linked');
      expect(entry!.action_details).toMatchObject({ operation: 'bras.control.link', sub_control_id: subControl.id });
    });

    it('an untested sub-control shows null results; unknown, foreign or archived sub-controls → 400 INVALID_REFERENCE', async () => {
      const bra = await newBra();
      const { subControl } = await createSubControl(ctx, w.enterprise.id);
      const untested = await call(w.admin, 'POST', `/bras/${bra.id}/controls`, { sub_control_id: subControl.id });
      expect(untested.json().data).toMatchObject({ tod: null, toe: null, total_effectiveness: null });
      const foreign = (await createSubControl(ctx, w.other.id)).subControl;
      const archived = (await createSubControl(ctx, w.enterprise.id, { archived: true })).subControl;
      for (const id of [randomUUID(), foreign.id, archived.id]) {
        const response = await call(w.admin, 'POST', `/bras/${bra.id}/controls`, { sub_control_id: id });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({ code: 'INVALID_REFERENCE', details: { field: 'sub_control_id' } });
      }
    });
  });

  describe('who and when (D5, D6.7, D10.1)', () => {
    it('changes are refused with 409 INVALID_STATE unless the BRA is draft or in_progress', async () => {
      for (const status of ['under_review', 'approved', 'cancelled'] as const) {
        const bra = await newBra({ status });
        const link = await addScenarioLink(ctx, bra);
        const scenario = await createRiskScenario(ctx, w.enterprise.id);
        const { subControl } = await createSubControl(ctx, w.enterprise.id);
        for (const [method, url, payload] of [
          ['POST', `/bras/${bra.id}/scenarios`, { risk_scenario_id: scenario.id }],
          ['PATCH', `/bras/${bra.id}/scenarios/${link.id}`, { included: false }],
          ['POST', `/bras/${bra.id}/ratings`, { bra_risk_scenario_id: link.id, rating_type: 'inherent', impact_score: 1, likelihood_score: 1 }],
          ['POST', `/bras/${bra.id}/controls`, { sub_control_id: subControl.id }],
        ] as const) {
          const response = await call(w.admin, method, url, payload);
          expect(response.statusCode, `${status} ${method} ${url}`).toBe(409);
          expect(response.json()).toMatchObject({ code: 'INVALID_STATE' });
        }
        expect(await statusOf(bra.id)).toBe(status);
      }
    });

    it('reviewers, assessors who did not create the BRA and unassigned users get 403 on changes; other enterprises 404', async () => {
      const bra = await newBra({ createdBy: w.admin.id });
      const link = await addScenarioLink(ctx, bra);
      const scenario = await createRiskScenario(ctx, w.enterprise.id);
      const { subControl } = await createSubControl(ctx, w.enterprise.id);
      const changes = [
        ['POST', `/bras/${bra.id}/scenarios`, { risk_scenario_id: scenario.id }, 'bras.scenario.add'],
        ['PATCH', `/bras/${bra.id}/scenarios/${link.id}`, { included: false }, 'bras.scenario.update'],
        ['POST', `/bras/${bra.id}/ratings`, { bra_risk_scenario_id: link.id, rating_type: 'inherent', impact_score: 1, likelihood_score: 1 }, 'bras.rating.create'],
        ['POST', `/bras/${bra.id}/controls`, { sub_control_id: subControl.id }, 'bras.control.link'],
      ] as const;
      for (const [method, url, payload, operation] of changes) {
        for (const user of [w.reviewer, w.assessor, w.outsideAssessor]) {
          await expectAccessDenied(ctx, user, await call(user, method, url, payload), operation);
        }
        expect((await call(w.otherAdmin, method, url, payload)).statusCode).toBe(404);
        expect((await call(w.superAdmin, method, url, payload)).statusCode).toBe(403);
      }
      expect(await statusOf(bra.id)).toBe('draft');
    });

    it('reads of scenarios, ratings and controls: assigned roles 200, unassigned 403, other enterprises 404', async () => {
      const bra = await newBra();
      await linkControl(ctx, bra, (await createSubControl(ctx, w.enterprise.id)).subControl.id);
      for (const path of ['scenarios', 'ratings', 'controls']) {
        for (const user of [w.admin, w.assessor, w.reviewer]) expect((await call(user, 'GET', `/bras/${bra.id}/${path}`)).statusCode, path).toBe(200);
        await expectAccessDenied(ctx, w.outsideReviewer, await call(w.outsideReviewer, 'GET', `/bras/${bra.id}/${path}`));
        expect((await call(w.otherAdmin, 'GET', `/bras/${bra.id}/${path}`)).statusCode).toBe(404);
      }
      expect((await call(w.admin, 'GET', `/bras/${bra.id}/controls`)).json().data).toHaveLength(1);
    });
  });
});
