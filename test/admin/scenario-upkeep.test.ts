import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { auditEntries } from '../support/audit.js';
import { createRiskScenario } from '../support/bras-factories.js';
import { cast } from '../support/cast.js';

describe('scenario library upkeep: PATCH and archive of risk scenarios', async () => {
  const ctx = await createTestContext();
  const w = await cast(ctx);
  const { call } = w;

  it('PATCH changes name, category and description, audited; 409 for a taken name; roles and tenants refused', async () => {
    const scenario = await createRiskScenario(ctx, w.enterprise.id);
    const other = await createRiskScenario(ctx, w.enterprise.id);
    const response = await call(w.admin, 'PATCH', `/risk-scenarios/${scenario.id}`, { name: 'Card fraud ring', category: 'External fraud', description: 'Organised' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({ id: scenario.id, name: 'Card fraud ring', description: 'Organised', archived_at: null });
    expect((await auditEntries(ctx, { entityId: scenario.id, action: 'update' })).at(-1)).toMatchObject({
      entity_type: 'risk_scenario',
      action_details: expect.objectContaining({ changes: { name: 'Card fraud ring', description: 'Organised' }, previous: { name: scenario.name, description: null } }),
    });
    expect((await call(w.admin, 'PATCH', `/risk-scenarios/${other.id}`, { name: 'card FRAUD ring' })).json().code).toBe('CONFLICT');
    for (const user of [w.assessor, w.reviewer, w.superAdmin]) {
      expect((await call(user, 'PATCH', `/risk-scenarios/${scenario.id}`, { name: 'X' })).statusCode).toBe(403);
      expect((await call(user, 'POST', `/risk-scenarios/${scenario.id}/archive`)).statusCode).toBe(403);
    }
    expect((await call(w.otherAdmin, 'PATCH', `/risk-scenarios/${scenario.id}`, { name: 'X' })).statusCode).toBe(404);
    expect((await call(w.otherAdmin, 'POST', `/risk-scenarios/${scenario.id}/archive`)).statusCode).toBe(404);
  });

  it('an archived scenario leaves the list and cannot be added to a BRA; BRAs that have it keep it; snapshots keep the old name', async () => {
    const scenario = await createRiskScenario(ctx, w.enterprise.id);
    const created = await call(w.admin, 'POST', '/bras', { name: `Keeps ${crypto.randomUUID().slice(0, 6)}`, legal_entity_id: w.entity.id, period: 'FY2026', assessor: 'Olivia' });
    const braId = created.json().data.id as string;
    const link = (await call(w.admin, 'POST', `/bras/${braId}/scenarios`, { risk_scenario_id: scenario.id })).json().data.id as string;
    for (const rating_type of ['inherent', 'residual']) {
      expect((await call(w.admin, 'POST', `/bras/${braId}/ratings`, { bra_risk_scenario_id: link, rating_type, impact_score: 3, likelihood_score: 3 })).statusCode).toBe(201);
    }
    const approved = await call(w.admin, 'POST', `/bras/${braId}/approve`, { final_comment: 'ok' });
    expect(approved.statusCode, approved.body).toBe(200);
    const snapshotId = approved.json().data.snapshot_id as string;

    expect((await call(w.admin, 'PATCH', `/risk-scenarios/${scenario.id}`, { name: `${scenario.name} v2` })).statusCode).toBe(200);
    const archived = await call(w.admin, 'POST', `/risk-scenarios/${scenario.id}/archive`);
    expect(archived.statusCode, archived.body).toBe(200);
    expect(archived.json().data.archived_at).toEqual(expect.any(String));
    expect((await call(w.admin, 'POST', `/risk-scenarios/${scenario.id}/archive`)).json().code).toBe('INVALID_STATE');
    expect((await call(w.admin, 'PATCH', `/risk-scenarios/${scenario.id}`, { name: 'again' })).json().code).toBe('INVALID_STATE');

    const listed = async (query = '') => {
      const ids: string[] = [];
      for (let page = 1; ; page += 1) {
        const body = (await call(w.reviewer, 'GET', `/risk-scenarios?page_size=100&page=${page}${query}`)).json();
        ids.push(...body.data.map((s: { id: string }) => s.id));
        if (!body.pagination.has_next) return ids;
      }
    };
    expect(await listed()).not.toContain(scenario.id);
    expect(await listed('&include_archived=true')).toContain(scenario.id);

    const another = await call(w.admin, 'POST', '/bras', { name: `New ${crypto.randomUUID().slice(0, 6)}`, legal_entity_id: w.entity.id, period: 'FY2026', assessor: 'Olivia' });
    const refused = await call(w.admin, 'POST', `/bras/${another.json().data.id}/scenarios`, { risk_scenario_id: scenario.id });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe('INVALID_REFERENCE');

    const kept = (await call(w.admin, 'GET', `/bras/${braId}/scenarios`)).json().data;
    expect(kept).toEqual([expect.objectContaining({ risk_scenario_id: scenario.id, name: `${scenario.name} v2` })]);
    const snapshot = (await call(w.admin, 'GET', `/bras/${braId}/snapshots/${snapshotId}`)).json().data;
    expect(snapshot.content.scenarios).toEqual([expect.objectContaining({ risk_scenario_id: scenario.id, name: scenario.name })]);

    // Its name is free for a new scenario.
    expect((await call(w.admin, 'POST', '/risk-scenarios', { name: `${scenario.name} v2`, category: 'External fraud' })).statusCode).toBe(201);
    expect((await auditEntries(ctx, { entityId: scenario.id, action: 'delete' })).at(-1)!.action_details).toMatchObject({ change: 'archived' });
  });
});
