import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { addRating, addScenarioLink, createAppetite, createBra, rateBoth } from '../support/bras-factories.js';
import { assignEntity, createLegalEntity, type TestUser } from '../support/factories.js';
import { cast } from '../support/cast.js';

/**
 * Issue 35: which scenarios are above appetite, by name; an approved BRA as approved (the appetite its
 * approval snapshot pinned) with today's breaches beside it; the people a BRA answer names, by name.
 */
describe('scenarios above appetite, approved BRAs as approved, people by name', async () => {
  const ctx = await createTestContext();
  const w = await cast(ctx);
  const { call } = w;
  const get = async (user: TestUser, braId: string) => {
    const response = await call(user, 'GET', `/bras/${braId}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  };

  /** In its own entity (so its appetite can move alone): residual 16, 12, 6, one excluded at 20, and (unless approvable) one unrated. */
  async function ratedBra(approvable = false) {
    const entity = await createLegalEntity(ctx, w.enterprise.id);
    const bra = await createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: entity.id, createdBy: w.admin.id, status: 'in_progress' });
    const links = {
      high: await addScenarioLink(ctx, bra),
      mid: await addScenarioLink(ctx, bra),
      low: await addScenarioLink(ctx, bra),
      unrated: await addScenarioLink(ctx, bra, !approvable),
      excluded: await addScenarioLink(ctx, bra, false),
    };
    await rateBoth(ctx, links.high, [5, 5], [4, 4]);
    await rateBoth(ctx, links.mid, [5, 4], [4, 3]);
    await rateBoth(ctx, links.low, [4, 4], [3, 2]);
    if (!approvable) await addRating(ctx, links.unrated, 'inherent', 3, 3);
    await rateBoth(ctx, links.excluded, [5, 5], [5, 4]);
    const names = Object.fromEntries(
      (await ctx.db.selectFrom('risk_scenarios').select(['id', 'name']).where('id', 'in', Object.values(links).map((l) => l.risk_scenario_id)).execute()).map((r) => [r.id, r.name]),
    );
    const breach = (link: typeof links.high, score: number, threshold: number) => ({ id: link.id, risk_scenario_id: link.risk_scenario_id, name: names[link.risk_scenario_id], residual_score: score, threshold });
    return { bra, entity, links, breach };
  }

  it('flags each scenario against the applicable threshold and lists the included ones above it, highest first', async () => {
    const { bra, links, breach } = await ratedBra();
    const data = await get(w.admin, bra.id);
    const flags = Object.fromEntries(data.scenarios.map((s: { id: string; applicable_threshold: number; above_appetite: boolean | null }) => [s.id, [s.applicable_threshold, s.above_appetite]]));
    expect(flags).toEqual({
      [links.high.id]: [9, true],
      [links.mid.id]: [9, true],
      [links.low.id]: [9, false],
      [links.unrated.id]: [9, null],
      [links.excluded.id]: [9, null],
    });
    expect(data.summary).toEqual({
      total_scenarios: 4,
      assessed_scenarios: 3,
      risks_above_appetite: 2,
      completion_percentage: 75,
      scenarios_above_appetite: [breach(links.high, 16, 9), breach(links.mid, 12, 9)],
    });
    expect(data).not.toHaveProperty('current_appetite_breaches');
  });

  it('a live BRA follows today\'s appetite', async () => {
    const { bra, entity, links, breach } = await ratedBra();
    await createAppetite(ctx, w.enterprise.id, { threshold: 12, legalEntityId: entity.id, level: 'High' });
    const data = await get(w.admin, bra.id);
    expect(data.summary.scenarios_above_appetite).toEqual([breach(links.high, 16, 12)]);
    expect(data.scenarios.find((s: { id: string }) => s.id === links.mid.id)).toMatchObject({ applicable_threshold: 12, above_appetite: false });
  });

  it('after an appetite change an approved BRA\'s summary and flags are unchanged, and current_appetite_breaches shows today\'s', async () => {
    const { bra, entity, links, breach } = await ratedBra(true);
    const approved = await call(w.admin, 'POST', `/bras/${bra.id}/approve`, { final_comment: 'Signed off' });
    expect(approved.statusCode, approved.body).toBe(200);
    const atApproval = await get(w.admin, bra.id);
    expect(atApproval.summary.risks_above_appetite).toBe(2);
    expect(atApproval.current_appetite_breaches).toEqual(atApproval.summary.scenarios_above_appetite);

    // The entity's appetite is raised to 15 (only 16 is above it), then lowered to 5 (16, 12 and 6).
    const override = await createAppetite(ctx, w.enterprise.id, { threshold: 15, legalEntityId: entity.id, level: 'High' });
    const raised = await get(w.admin, bra.id);
    expect(raised.summary).toEqual(atApproval.summary);
    expect(raised.scenarios).toEqual(atApproval.scenarios);
    expect(raised.current_appetite_breaches).toEqual([breach(links.high, 16, 15)]);

    await ctx.db.updateTable('risk_appetites').set({ threshold_value: 5, risk_level: 'Medium' }).where('id', '=', override.id).execute();
    const lowered = await get(w.admin, bra.id);
    expect(lowered.summary).toEqual(atApproval.summary);
    expect(lowered.current_appetite_breaches).toEqual([breach(links.high, 16, 5), breach(links.mid, 12, 5), breach(links.low, 6, 5)]);

    // The approval snapshot says the same as the approved BRA.
    const snapshot = (await call(w.admin, 'GET', `/bras/${bra.id}/snapshots/${approved.json().data.snapshot_id}`)).json().data;
    expect(snapshot.content.summary).toEqual(atApproval.summary);
    expect(snapshot.content.scenarios).toEqual(atApproval.scenarios);
  });

  it('a snapshot taken before the flags existed is read with them, under the threshold it pinned', async () => {
    const { bra, links, breach } = await ratedBra(true);
    const approved = await call(w.admin, 'POST', `/bras/${bra.id}/approve`, {});
    const snapshotId = approved.json().data.snapshot_id as string;
    // An older snapshot's content: written before scenarios carried flags and the summary its list.
    const stored = await ctx.db.selectFrom('bra_snapshots').select('content').where('id', '=', snapshotId).executeTakeFirstOrThrow();
    const old = structuredClone(stored.content) as { scenarios: Record<string, unknown>[]; summary: Record<string, unknown> };
    for (const scenario of old.scenarios) {
      delete scenario['applicable_threshold'];
      delete scenario['above_appetite'];
    }
    delete old.summary['scenarios_above_appetite'];
    const oldId = (
      await ctx.db
        .insertInto('bra_snapshots')
        .values({ enterprise_id: w.enterprise.id, bra_id: bra.id, kind: 'created', content: JSON.stringify(old), methodology: JSON.stringify({ risk_bands: [], appetite: { id: snapshotId, risk_level: 'Medium', threshold_value: 11, legal_entity_id: null, business_unit_id: null } }), created_by: w.admin.id })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const response = await call(w.admin, 'GET', `/bras/${bra.id}/snapshots/${oldId}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data.content.summary.scenarios_above_appetite).toEqual([breach(links.high, 16, 11), breach(links.mid, 12, 11)]);
  });

  it('names the creator, approver and canceller by name, and the snapshots\' authors, to a reviewer too', async () => {
    const { bra, entity } = await ratedBra(true);
    await assignEntity(ctx, w.reviewer, entity.id);
    const approved = await call(w.admin, 'POST', `/bras/${bra.id}/approve`, {});
    expect(approved.statusCode, approved.body).toBe(200);
    const data = await get(w.reviewer, bra.id);
    expect(data).toMatchObject({
      created_by: w.admin.id,
      created_by_user: { id: w.admin.id, full_name: w.admin.fullName },
      approved_by: w.admin.id,
      approved_by_user: { id: w.admin.id, full_name: w.admin.fullName },
      cancelled_by: null,
      cancelled_by_user: null,
    });
    const snapshots = (await call(w.admin, 'GET', `/bras/${bra.id}/snapshots`)).json().data;
    expect(snapshots[0]).toMatchObject({ kind: 'approved', created_by: w.admin.id, created_by_user: { id: w.admin.id, full_name: w.admin.fullName } });
    const one = (await call(w.admin, 'GET', `/bras/${bra.id}/snapshots/${snapshots[0].id}`)).json().data;
    expect(one.created_by_user).toEqual({ id: w.admin.id, full_name: w.admin.fullName });

    const cancelled = await createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: w.entity.id, status: 'in_progress' });
    expect((await call(w.admin, 'POST', `/bras/${cancelled.id}/cancel`, { cancellation_reason: 'Merged into another' })).statusCode).toBe(200);
    const seen = await get(w.reviewer, cancelled.id);
    expect(seen).toMatchObject({ created_by_user: null, approved_by_user: null, cancelled_by: w.admin.id, cancelled_by_user: { id: w.admin.id, full_name: w.admin.fullName } });
  });
});
