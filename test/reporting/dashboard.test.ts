import { describe, expect, it } from 'vitest';
import { runDemo } from '../../src/demo/run-demo.js';
import { createTestContext } from '../support/app.js';
import { bearer } from '../support/factories.js';
import { freshDatabase } from '../support/database.js';

type Rating = { impact_score: number; likelihood_score: number; risk_score: number };
type Bra = { id: string; status: string; legal_entity_id: string; business_unit_id: string | null; approved_at: string | null; period: string };
type Detail = Bra & {
  scenarios: { id: string; included: boolean; inherent_rating: Rating | null; residual_rating: Rating | null; acceptance?: { id: string } | null }[];
  summary: { assessed_scenarios: number; risks_above_appetite: number; scenarios_above_appetite: { id: string }[] };
  /** Approved BRAs: the breaches under today's appetite (their summary keeps the appetite of their approval). */
  current_appetite_breaches?: { id: string }[];
};

/**
 * GET /dashboard on the demo data: every figure equals the same figure computed from the BRA, action and
 * control endpoints, for the client admin and for a reviewer (whose scope is narrower); each heat-map cell's
 * register filter lists exactly its rows.
 */
describe('the dashboard on the demo data', async () => {
  const database = await freshDatabase();
  const ctx = await createTestContext({ database });
  const result = await runDemo(database, ctx.config);
  const signIn = async (role: string) => {
    const person = result.credentials.find((c) => c.role === role)!;
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=password',
      headers: { apikey: ctx.secrets.anonKey, 'content-type': 'application/json' },
      payload: { email: person.email, password: person.password },
    });
    return bearer(response.json().access_token);
  };
  const getAs = (headers: Record<string, string>) => async (url: string) => {
    const response = await ctx.app.inject({ method: 'GET', url: `/api/v1${url}`, headers });
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    return response.json();
  };

  for (const role of ['admin', 'reviewer', 'assessor']) {
    describe(`as the demo ${role}`, async () => {
      const get = getAs(await signIn(role));
      const dashboard = (await get('/dashboard')).data;
      const bras = (await get('/bras?page_size=100')).data as Bra[];

      it('BRAs by status are those GET /bras lists', () => {
        const expected: Record<string, number> = { draft: 0, in_progress: 0, under_review: 0, approved: 0, cancelled: 0 };
        for (const bra of bras) expected[bra.status]! += 1;
        expect(dashboard.bras_by_status).toEqual({ ...expected, total: bras.length });
      });

      it('scenario figures and both heat maps come from the newest approved BRA of each place, read through GET /bras/{id}', async () => {
        const newest = new Map<string, Bra>();
        for (const bra of bras.filter((b) => b.status === 'approved')) {
          const place = `${bra.legal_entity_id}/${bra.business_unit_id}`;
          const held = newest.get(place);
          if (held === undefined || held.approved_at! < bra.approved_at!) newest.set(place, bra);
        }
        const details = await Promise.all([...newest.values()].map(async (bra) => (await get(`/bras/${bra.id}`)).data as Detail));
        const assessed = details.reduce((n, d) => n + d.summary.assessed_scenarios, 0);
        // The dashboard judges against today's appetite: an approved BRA's current breaches.
        const above = details.reduce((n, d) => n + (d.current_appetite_breaches?.length ?? d.summary.risks_above_appetite), 0);
        // Of those, the ones with a risk acceptance in force (issue 48), as each BRA's answer shows them.
        const breaches = details.flatMap((d) => (d.current_appetite_breaches ?? d.summary.scenarios_above_appetite).map((b) => b.id));
        const accepted = details.flatMap((d) => d.scenarios).filter((s) => s.acceptance != null && breaches.includes(s.id)).length;
        expect(dashboard.scenarios).toEqual({
          assessed,
          above_appetite: above,
          above_appetite_accepted: accepted,
          above_appetite_unaccepted: above - accepted,
          within_appetite: assessed - above,
          within_appetite_percentage: assessed === 0 ? 0 : Math.round((100 * (assessed - above)) / assessed),
        });
        for (const kind of ['inherent', 'residual'] as const) {
          const ratings = details.flatMap((d) => d.scenarios.filter((s) => s.included).map((s) => s[`${kind}_rating`]).filter((r): r is Rating => r !== null));
          const map = dashboard.heat_maps[kind];
          expect(map.cells).toHaveLength(25);
          expect(map.total).toBe(ratings.length);
          for (const cell of map.cells) {
            const expectedCount = ratings.filter((r) => r.impact_score === cell.impact_score && r.likelihood_score === cell.likelihood_score).length;
            expect(cell.count, `${kind} ${cell.impact_score}×${cell.likelihood_score}`).toBe(expectedCount);
          }
        }
        expect(dashboard.heat_maps.residual.total).toBeGreaterThan(0);
      });

      it('each heat-map cell’s register filter lists exactly its rows', async () => {
        for (const kind of ['inherent', 'residual'] as const) {
          for (const cell of dashboard.heat_maps[kind].cells) {
            const page = await get(`/risk-register?${cell.register_query}&page_size=100`);
            expect(page.pagination.total).toBe(cell.count);
            for (const row of page.data) {
              expect(row[`${kind}_rating`]).toMatchObject({ impact_score: cell.impact_score, likelihood_score: cell.likelihood_score });
            }
          }
        }
      });

      it('overdue actions by priority are those GET /mitigation-actions?overdue_only=true lists', async () => {
        const overdue = (await get('/mitigation-actions?overdue_only=true&page_size=100')).data as { priority: string }[];
        const expected: Record<string, number> = { low: 0, medium: 0, high: 0, critical: 0 };
        for (const action of overdue) expected[action.priority]! += 1;
        expect(dashboard.overdue_actions).toEqual({ ...expected, total: overdue.length });
      });

      it('sub-controls by effectiveness are GET /controls/effectiveness; the untested ones are counted from GET /controls/sub-controls', async () => {
        const { message: _message, ...effectiveness } = (await get('/controls/effectiveness')).data as Record<string, number> & { message?: string };
        const subControls = (await get('/controls/sub-controls')).data as { testing_date: string | null }[];
        const yearAgo = new Date();
        yearAgo.setUTCMonth(yearAgo.getUTCMonth() - 12);
        const limit = yearAgo.toISOString().slice(0, 10);
        const untested = subControls.filter((s) => s.testing_date === null || s.testing_date < limit).length;
        expect(dashboard.sub_controls).toEqual({ ...effectiveness, untested_over_12_months: untested });
      });

      it('the trend holds, per period of approved BRAs, the average and maximum residual score of their included scenarios', async () => {
        const approved = bras.filter((b) => b.status === 'approved');
        const byPeriod = new Map<string, number[]>();
        for (const bra of approved) {
          const detail = (await get(`/bras/${bra.id}`)).data as Detail;
          const scores = detail.scenarios.filter((s) => s.included && s.residual_rating !== null).map((s) => s.residual_rating!.risk_score);
          byPeriod.set(bra.period, [...(byPeriod.get(bra.period) ?? []), ...scores]);
        }
        expect(dashboard.trend.map((t: { period: string }) => t.period).sort()).toEqual([...byPeriod.keys()].sort());
        for (const point of dashboard.trend) {
          const scores = byPeriod.get(point.period)!;
          expect(point.scenarios).toBe(scores.length);
          expect(point.max_residual_score).toBe(Math.max(...scores));
          expect(point.average_residual_score).toBeCloseTo(scores.reduce((a, b) => a + b, 0) / scores.length, 2);
        }
      });
    });
  }

  it('another enterprise’s admin sees none of the demo’s figures; a super admin is refused', async () => {
    const { createUser, tokenFor } = await import('../support/factories.js');
    const { createBraEnterprise } = await import('../support/bras-factories.js');
    const other = await createBraEnterprise(ctx);
    const admin = await createUser(ctx, { role: 'admin', enterpriseId: other.id });
    const data = (await getAs(bearer(await tokenFor(ctx, admin)))('/dashboard')).data;
    expect(data.bras_by_status.total).toBe(0);
    expect(data.heat_maps.residual.total).toBe(0);
    expect(data.sub_controls.total).toBe(0);
    expect(data.trend).toEqual([]);
    const superAdmin = await createUser(ctx, { role: 'super_admin' });
    const refused = await ctx.app.inject({ method: 'GET', url: '/api/v1/dashboard', headers: bearer(await tokenFor(ctx, superAdmin)) });
    expect(refused.statusCode).toBe(403);
  });
});
