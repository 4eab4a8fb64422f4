import { describe, expect, it } from 'vitest';
import { OVERDUE_URGENT_CAUSE } from '../../src/modules/actions/enterprise-health.check.js';
import { createTestContext } from '../support/app.js';
import { insertAction, utcDate } from '../support/actions-factories.js';
import { createEnterprise, createUser, tokenFor } from '../support/factories.js';
import { calls } from '../support/cast.js';

/**
 * The enterprise_health alert (D9.5): 5 or more overdue actions of priority high or critical in one
 * enterprise, raised by the actions module's periodic check (every 10 s, so within 30 s: D10.5); one
 * unresolved alert per enterprise. `monitor.flush()` runs a round now instead of waiting for the timer. The
 * check is the module's job: this app runs jobs, as the service does.
 */
describe('enterprise_health alert from overdue urgent actions (D9.5, D10.5)', async () => {
  const ctx = await createTestContext({ jobs: true });
  const { call } = calls(ctx);
  const superAdmin = await createUser(ctx, { role: 'super_admin' });
  const superToken = await tokenFor(ctx, superAdmin);
  const enterprise = await createEnterprise(ctx);
  const admin = await createUser(ctx, { role: 'admin', enterpriseId: enterprise.id });
  const adminToken = await tokenFor(ctx, admin);

  const healthAlerts = async (enterpriseId: string) => {
    const response = await call(superToken, 'GET', '/admin/alerts?page_size=100');
    expect(response.statusCode, response.body).toBe(200);
    return response
      .json()
      .data.filter(
        // D9.5's alert, by its title: the health score's own enterprise_health alert (cause health_status) may be open beside it.
        (alert: { type: string; enterprise_id: string; title: string }) =>
          alert.type === 'enterprise_health' && alert.enterprise_id === enterpriseId && alert.title === 'Overdue high-priority mitigation actions',
      );
  };
  const overdueUrgent = (enterpriseId: string, priority: 'high' | 'critical' = 'high') =>
    insertAction(ctx, { enterpriseId, priority, status: 'in_progress', dueDate: utcDate(-1) });

  // Actions that do not count: completed, archived, due today, not urgent.
  await insertAction(ctx, { enterpriseId: enterprise.id, priority: 'critical', status: 'completed', dueDate: utcDate(-5) });
  await insertAction(ctx, { enterpriseId: enterprise.id, priority: 'critical', status: 'created', dueDate: utcDate(-5), archived: true });
  await insertAction(ctx, { enterpriseId: enterprise.id, priority: 'high', status: 'created', dueDate: utcDate(0) });
  await insertAction(ctx, { enterpriseId: enterprise.id, priority: 'medium', status: 'created', dueDate: utcDate(-5) });
  for (let i = 0; i < 4; i += 1) await overdueUrgent(enterprise.id, i % 2 === 0 ? 'high' : 'critical');

  it('four overdue urgent actions (and any number that do not count) raise nothing', async () => {
    await ctx.monitor.flush();
    expect(await healthAlerts(enterprise.id)).toEqual([]);
  });

  it('the fifth, created through the API with a past due date, raises one warning for the enterprise', async () => {
    const created = await call(adminToken, 'POST', '/mitigation-actions', {
      action: 'Patch the payment gateway',
      owner: 'IT',
      priority: 'critical',
      action_type: 'Corrective',
      due_date: utcDate(-2),
    });
    expect(created.statusCode, created.body).toBe(201);
    await ctx.monitor.flush();
    const alerts = await healthAlerts(enterprise.id);
    expect(alerts).toEqual([
      expect.objectContaining({
        type: 'enterprise_health',
        severity: 'warning',
        status: 'open',
        enterprise_id: enterprise.id,
        title: expect.any(String),
        message: expect.stringContaining('5 overdue'),
      }),
    ]);
  });

  it('later rounds, and more overdue actions, do not duplicate it', async () => {
    await overdueUrgent(enterprise.id);
    await ctx.monitor.flush();
    await ctx.monitor.flush();
    expect(await healthAlerts(enterprise.id)).toHaveLength(1);
    const rows = await ctx.db
      .selectFrom('system_alerts')
      .select('id')
      .where('type', '=', 'enterprise_health')
      .where('enterprise_id', '=', enterprise.id)
      .where('cause', '=', OVERDUE_URGENT_CAUSE)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('once resolved, it is raised again while the condition holds; acknowledged, it is not duplicated', async () => {
    const [alert] = await healthAlerts(enterprise.id);
    const acknowledged = await call(superToken, 'PATCH', `/admin/alerts/${alert.id}`, { status: 'acknowledged', notes: 'Chasing owners' });
    expect(acknowledged.statusCode, acknowledged.body).toBe(200);
    await ctx.monitor.flush();
    expect(await healthAlerts(enterprise.id)).toHaveLength(1);
    const resolved = await call(superToken, 'PATCH', `/admin/alerts/${alert.id}`, { status: 'resolved', resolution: 'Escalated' });
    expect(resolved.statusCode, resolved.body).toBe(200);
    await ctx.monitor.flush();
    const after = await healthAlerts(enterprise.id);
    expect(after.map((a: { status: string }) => a.status).sort()).toEqual(['open', 'resolved']);
  });

  it('completing the actions ends the condition: resolved, it is not raised again', async () => {
    const open = await ctx.db
      .selectFrom('mitigation_actions')
      .select('id')
      .where('enterprise_id', '=', enterprise.id)
      .where('status', '<>', 'completed')
      .where('archived', '=', false)
      .execute();
    const completed = await call(adminToken, 'POST', '/mitigation-actions/bulk-update', {
      action_ids: open.map((row) => row.id),
      updates: { status: 'completed' },
    });
    expect(completed.statusCode, completed.body).toBe(200);
    const [openAlert] = (await healthAlerts(enterprise.id)).filter((a: { status: string }) => a.status === 'open');
    await call(superToken, 'PATCH', `/admin/alerts/${openAlert.id}`, { status: 'resolved', resolution: 'Actions completed' });
    await ctx.monitor.flush();
    expect((await healthAlerts(enterprise.id)).filter((a: { status: string }) => a.status !== 'resolved')).toEqual([]);
  });

  it('counts per enterprise: five overdue urgent actions split across two enterprises raise nothing; five low ones neither', async () => {
    const first = await createEnterprise(ctx);
    const second = await createEnterprise(ctx);
    for (let i = 0; i < 3; i += 1) await overdueUrgent(first.id);
    for (let i = 0; i < 2; i += 1) await overdueUrgent(second.id);
    const lowOnly = await createEnterprise(ctx);
    for (let i = 0; i < 5; i += 1) await insertAction(ctx, { enterpriseId: lowOnly.id, priority: 'low', dueDate: utcDate(-3) });
    await ctx.monitor.flush();
    expect(await healthAlerts(first.id)).toEqual([]);
    expect(await healthAlerts(second.id)).toEqual([]);
    expect(await healthAlerts(lowOnly.id)).toEqual([]);
  });

  it('several enterprises in poor health get one alert each', async () => {
    const sick = [await createEnterprise(ctx), await createEnterprise(ctx)];
    for (const each of sick) for (let i = 0; i < 5; i += 1) await overdueUrgent(each.id, 'critical');
    await ctx.monitor.flush();
    await ctx.monitor.flush();
    for (const each of sick) expect(await healthAlerts(each.id)).toHaveLength(1);
  });
});
