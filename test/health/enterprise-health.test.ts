import { describe, expect, it } from 'vitest';
import { assessHealth } from '../../src/modules/health/health-score.js';
import { sessionHeaders } from '../support/api.js';
import { createTestContext } from '../support/app.js';
import { insertAction, insertActions, utcDate } from '../support/actions-factories.js';
import { addScenarioLink, createBra, createBraEnterprise, createSubControl, rateBoth } from '../support/bras-factories.js';
import { createLegalEntity, createUser } from '../support/factories.js';
import { providerCalls } from '../support/provider.js';

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

/** Enterprise health: GET /admin/enterprises/{id}/health, the list's health columns, and the enterprise_health alert. */
describe('enterprise health (docs/enterprise-health.md)', async () => {
  const ctx = await createTestContext({ jobs: true });
  const headers = sessionHeaders(ctx);
  const superAdmin = await createUser(ctx, { role: 'super_admin' });
  const get = async (url: string, user = superAdmin) => ctx.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: await headers(user) });

  /** One of every signal: counted and uncounted rows side by side. */
  async function troubledEnterprise() {
    const enterprise = await createBraEnterprise(ctx); // default appetite Medium, 9
    const entity = await createLegalEntity(ctx, enterprise.id);
    const e = enterprise.id;
    // Overdue urgent: two count; low priority, completed, archived and not yet due do not.
    await insertActions(ctx, [
      { enterpriseId: e, priority: 'high', dueDate: utcDate(-3) },
      { enterpriseId: e, priority: 'critical', dueDate: utcDate(-1), status: 'in_progress' },
      { enterpriseId: e, priority: 'low', dueDate: utcDate(-3) },
      { enterpriseId: e, priority: 'high', dueDate: utcDate(-3), status: 'completed' },
      { enterpriseId: e, priority: 'critical', dueDate: utcDate(-3), archived: true },
      { enterpriseId: e, priority: 'critical', dueDate: utcDate(2) },
    ]);
    // Above appetite (9): residual 12 counts; residual 9 does not; a cancelled BRA's 20 does not; an excluded scenario does not.
    const live = await createBra(ctx, { enterpriseId: e, legalEntityId: entity.id, status: 'in_progress' });
    await rateBoth(ctx, await addScenarioLink(ctx, live), [5, 5], [3, 4]);
    await rateBoth(ctx, await addScenarioLink(ctx, live), [5, 5], [3, 3]);
    await rateBoth(ctx, await addScenarioLink(ctx, live, false), [5, 5], [5, 5]);
    const cancelled = await createBra(ctx, { enterpriseId: e, legalEntityId: entity.id, status: 'cancelled' });
    await rateBoth(ctx, await addScenarioLink(ctx, cancelled), [5, 5], [4, 5]);
    // Past its period: started 400 days ago and still under review; an approved one of the same age is not.
    const late = await createBra(ctx, { enterpriseId: e, legalEntityId: entity.id, status: 'under_review' });
    const done = await createBra(ctx, { enterpriseId: e, legalEntityId: entity.id, status: 'approved' });
    await ctx.db.updateTable('bras').set({ start_date: daysAgo(400) }).where('id', 'in', [late.id, done.id]).execute();
    // Sub-controls: untested and Not Effective are weak (2 of 4); an archived one is not counted at all.
    await createSubControl(ctx, e);
    await createSubControl(ctx, e, { tod: 'E', toe: '5', effectiveness: 'Not Effective' });
    await createSubControl(ctx, e, { tod: 'A', toe: '1', effectiveness: 'Highly Effective' });
    await createSubControl(ctx, e, { tod: 'B', toe: '2', effectiveness: 'Effective' });
    await createSubControl(ctx, e, { archived: true });
    // Three refused sign-ins on one of its accounts.
    const member = await createUser(ctx, { role: 'assessor', enterpriseId: e });
    for (let i = 0; i < 3; i += 1) {
      expect((await providerCalls(ctx).passwordGrant({ email: member.email, password: 'not the password' })).statusCode).toBe(400);
    }
    return enterprise;
  }

  it('counts each signal and scores it by the documented formula; the list shows the same score and status', async () => {
    const enterprise = await troubledEnterprise();
    const response = await get(`/admin/enterprises/${enterprise.id}/health`);
    expect(response.statusCode, response.body).toBe(200);
    const data = response.json().data;
    const values = Object.fromEntries(data.signals.map((signal: { name: string; value: number }) => [signal.name, signal.value]));
    expect(values).toEqual({ overdue_urgent_actions: 2, scenarios_above_appetite: 1, bras_past_period: 1, weak_sub_controls: 2, failed_sign_ins: 3 });
    expect(data.signals.find((signal: { name: string }) => signal.name === 'weak_sub_controls').out_of).toBe(4);
    // 100 - 12 - 5 - 5 - 10 - 1.5 = 66.5 → 67, at risk.
    expect(data).toMatchObject({ enterprise_id: enterprise.id, score: 67, status: 'at_risk' });
    const expected = assessHealth({ overdue_urgent_actions: 2, scenarios_above_appetite: 1, bras_past_period: 1, sub_controls: 4, weak_sub_controls: 2, failed_sign_ins: 3 });
    expect(data.score).toBe(expected.score);

    const list = await get('/admin/enterprises?page_size=100');
    const item = list.json().data.find((row: { id: string }) => row.id === enterprise.id);
    expect(item).toMatchObject({ health_score: 67, health_status: 'at_risk' });
  });

  it('answers 404 for an enterprise that does not exist, and 403 to every member role, even of that enterprise', async () => {
    expect((await get('/admin/enterprises/00000000-0000-4000-8000-000000000999/health')).statusCode).toBe(404);
    const enterprise = await createBraEnterprise(ctx);
    for (const role of ['admin', 'assessor', 'reviewer'] as const) {
      const own = await createUser(ctx, { role, enterpriseId: enterprise.id });
      expect((await get(`/admin/enterprises/${enterprise.id}/health`, own)).statusCode, role).toBe(403);
    }
    // Another enterprise's client admin: the same refusal (the endpoint is the platform's, not a tenant's).
    const outsider = await createUser(ctx, { role: 'admin' });
    expect((await get(`/admin/enterprises/${enterprise.id}/health`, outsider)).statusCode).toBe(403);
  });

  it('records one row a day and shows the last 90 days, oldest first', async () => {
    const enterprise = await createBraEnterprise(ctx);
    const day = (days: number, score: number, status: 'healthy' | 'at_risk' | 'critical') => ({
      enterprise_id: enterprise.id,
      day: daysAgo(days),
      score,
      status,
      signals: '{}',
    });
    await ctx.db.insertInto('enterprise_health_history').values([day(120, 40, 'critical'), day(90, 45, 'critical'), day(89, 60, 'at_risk'), day(3, 80, 'healthy')]).execute();
    await ctx.monitor.flush();
    await ctx.monitor.flush();
    const history = (await get(`/admin/enterprises/${enterprise.id}/health`)).json().data.history;
    expect(history).toEqual([
      { date: daysAgo(89), score: 60, status: 'at_risk' },
      { date: daysAgo(3), score: 80, status: 'healthy' },
      { date: daysAgo(0), score: 100, status: 'healthy' },
    ]);
  });

  it('raises the enterprise_health alert when the status worsens, escalates it when it worsens again, and resolves it on recovery', async () => {
    const enterprise = await createBraEnterprise(ctx);
    const alert = () =>
      ctx.db
        .selectFrom('system_alerts')
        .select(['status', 'severity', 'resolved_by', 'resolution', 'message'])
        .where('enterprise_id', '=', enterprise.id)
        .where('type', '=', 'enterprise_health')
        .where('cause', '=', 'health_status')
        .orderBy('created_at', 'desc')
        .executeTakeFirst();
    await ctx.monitor.flush();
    expect(await alert()).toBeUndefined(); // healthy: nothing

    await insertAction(ctx, { enterpriseId: enterprise.id, priority: 'critical', dueDate: utcDate(-2) });
    await insertActions(ctx, Array.from({ length: 4 }, () => ({ enterpriseId: enterprise.id, priority: 'high' as const, dueDate: utcDate(-2) })));
    await ctx.monitor.flush(); // 5 overdue: 70, at risk
    expect(await alert()).toMatchObject({ status: 'open', severity: 'warning' });
    // The operator reads where to look in the console, not an API path to call.
    expect((await alert())!.message).toMatch(/on the Enterprises screen/);
    expect((await alert())!.message).not.toMatch(/\/api\//);

    await createSubControl(ctx, enterprise.id); // 1 of 1 untested: -20 → 50, still at risk
    await createSubControl(ctx, enterprise.id, { tod: 'E', toe: '5', effectiveness: 'Not Effective' });
    const entity = await createLegalEntity(ctx, enterprise.id);
    const bra = await createBra(ctx, { enterpriseId: enterprise.id, legalEntityId: entity.id, status: 'in_progress' });
    await rateBoth(ctx, await addScenarioLink(ctx, bra), [5, 5], [4, 4]); // above appetite: 45, critical
    await ctx.monitor.flush();
    expect(await alert()).toMatchObject({ status: 'open', severity: 'error' });

    // Recovery: the actions done, the sub-controls archived, the BRA cancelled.
    await ctx.db.updateTable('mitigation_actions').set({ status: 'completed' }).where('enterprise_id', '=', enterprise.id).execute();
    await ctx.db.updateTable('sub_controls').set({ archived: true, archived_at: new Date() }).where('enterprise_id', '=', enterprise.id).execute();
    await ctx.db.updateTable('bras').set({ status: 'cancelled' }).where('id', '=', bra.id).execute();
    await ctx.monitor.flush();
    expect(await alert()).toMatchObject({ status: 'resolved', resolved_by: null, resolution: expect.stringContaining('healthy') });
  });
});
