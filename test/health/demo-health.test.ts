import { describe, expect, it } from 'vitest';
import { DEMO_MEMBERS } from '../../src/demo/demo-data.js';
import { runDemo } from '../../src/demo/run-demo.js';
import { assessHealth, type HealthSignals } from '../../src/modules/health/health-score.js';
import { createTestContext } from '../support/app.js';
import { freshDatabase } from '../support/database.js';
import { bearer, createUser, tokenFor } from '../support/factories.js';

const DAY = 86_400_000;

/**
 * The demo enterprise's health, recounted here from what its client admin sees through the API (actions,
 * BRA summaries, the effectiveness summary, the audit trail) and scored by the documented formula.
 */
describe('npm run demo: the demo enterprise’s health matches the documented formula', async () => {
  const database = await freshDatabase();
  const ctx = await createTestContext({ database });
  const result = await runDemo(database, ctx.config);
  const clientAdmin = DEMO_MEMBERS.find((member) => member.role === 'admin')!;
  const signedIn = await ctx.app.inject({
    method: 'POST',
    url: '/auth/v1/token?grant_type=password',
    headers: { apikey: ctx.secrets.anonKey },
    payload: { email: clientAdmin.email, password: clientAdmin.password },
  });
  const asAdmin = bearer(signedIn.json().access_token);
  const superAdmin = bearer(await tokenFor(ctx, await createUser(ctx, { role: 'super_admin' })));
  const get = async (url: string, headers = asAdmin) => {
    const response = await ctx.app.inject({ method: 'GET', url: `/api/v1${url}`, headers });
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    return response.json();
  };

  async function recount(): Promise<HealthSignals> {
    const overdue = async (priority: string) => (await get(`/mitigation-actions?overdue_only=true&priority=${priority}`)).pagination.total as number;
    const bras = (await get('/bras?page_size=100')).data as { id: string; status: string; start_date: string | null; created_at: string }[];
    let above = 0;
    // Health judges against today's appetite: for an approved BRA, its current breaches (its summary keeps the approval's).
    for (const bra of bras.filter((row) => row.status !== 'cancelled')) {
      const detail = (await get(`/bras/${bra.id}`)).data;
      above += detail.current_appetite_breaches?.length ?? detail.summary.risks_above_appetite;
    }
    const yearAgo = Date.now() - 365 * DAY;
    const pastPeriod = bras.filter(
      (bra) => ['draft', 'in_progress', 'under_review'].includes(bra.status) && Date.parse(bra.start_date ?? bra.created_at) < yearAgo - DAY,
    ).length;
    const effectiveness = (await get('/controls/effectiveness')).data;
    const logins = (await get('/audit?action_type=login&page_size=100')).data as { status: string; created_at: string }[];
    const failed = logins.filter((entry) => entry.status === 'failed' && Date.parse(entry.created_at) >= Date.now() - 7 * DAY).length;
    return {
      overdue_urgent_actions: (await overdue('high')) + (await overdue('critical')),
      scenarios_above_appetite: above,
      bras_past_period: pastPeriod,
      sub_controls: effectiveness.total,
      weak_sub_controls: effectiveness.not_assessed + effectiveness.not_effective,
      failed_sign_ins: failed,
    };
  }

  it('scores the demo enterprise in the list and on its health page as the formula does over its recounted signals', async () => {
    expect(result.outcome).toBe('created');
    const enterpriseId = result.enterprise.id;
    const signals = await recount();
    // The demo has something to show on most signals.
    expect(signals.overdue_urgent_actions).toBeGreaterThan(0);
    expect(signals.weak_sub_controls).toBeGreaterThan(0);
    const expected = assessHealth(signals);

    const listed = (await get('/admin/enterprises?page_size=100', superAdmin)).data.find((row: { id: string }) => row.id === enterpriseId);
    expect(listed).toMatchObject({ health_score: expected.score, health_status: expected.status });
    const health = (await get(`/admin/enterprises/${enterpriseId}/health`, superAdmin)).data;
    expect(health).toMatchObject({ score: expected.score, status: expected.status });
    const values = Object.fromEntries(health.signals.map((signal: { name: string; value: number }) => [signal.name, signal.value]));
    const { sub_controls: _all, ...counted } = signals;
    expect(values).toEqual(counted);
  });
});
