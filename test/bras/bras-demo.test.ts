import { describe, expect, it } from 'vitest';
import { DEMO_BRAS } from '../../src/demo/steps/bras.step.js';
import { DEMO_ROLL_FORWARD } from '../../src/demo/steps/continuity.step.js';
import { REVIEWED_DEMO_BRA } from '../../src/demo/steps/review-comments.step.js';
import { DEMO_ENTERPRISE } from '../../src/demo/demo-data.js';
import { runDemo } from '../../src/demo/run-demo.js';
import { createTestContext } from '../support/app.js';
import { bearer } from '../support/factories.js';
import { freshDatabase } from '../support/database.js';

/** `npm run demo` leaves BRAs in every state, made through the BRA service, readable through the API. */
describe('demo BRAs', async () => {
  const database = await freshDatabase();
  const ctx = await createTestContext({ database });
  const result = await runDemo(database, ctx.config);

  const signIn = async (email: string, password: string) => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=password',
      headers: { apikey: ctx.secrets.anonKey, 'content-type': 'application/json' },
      payload: { email, password },
    });
    return bearer(response.json().access_token);
  };

  it('creates one BRA in every state, each with its created snapshot, and the approved one with its approval snapshot', async () => {
    expect(result.outcome).toBe('created');
    const enterprise = await ctx.db.selectFrom('enterprises').select('id').where('name', '=', DEMO_ENTERPRISE.name).executeTakeFirstOrThrow();
    const bras = await ctx.db.selectFrom('bras').selectAll().where('enterprise_id', '=', enterprise.id).execute();
    // One per DEMO_BRAS entry, and the FY2027 BRA rolled forward from the approved one.
    expect(bras).toHaveLength(DEMO_BRAS.length + 1);
    expect(new Set(bras.map((b) => b.status))).toEqual(new Set(['draft', 'in_progress', 'under_review', 'approved', 'cancelled']));
    const snapshots = await ctx.db.selectFrom('bra_snapshots').select(['bra_id', 'kind', 'id']).where('enterprise_id', '=', enterprise.id).execute();
    expect(snapshots.filter((s) => s.kind === 'created')).toHaveLength(DEMO_BRAS.length + 1);
    const approved = bras.find((b) => b.status === 'approved')!;
    expect(snapshots.find((s) => s.kind === 'approved')).toMatchObject({ bra_id: approved.id, id: approved.snapshot_id });
  });

  it('the client admin reads them over the API: an in-progress BRA with partial ratings, an approved one complete', async () => {
    const admin = result.credentials.find((c) => c.role === 'admin')!;
    const headers = await signIn(admin.email, admin.password!);
    const list = await ctx.app.inject({ method: 'GET', url: '/api/v1/bras', headers });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().pagination.total).toBe(DEMO_BRAS.length + 1);
    const byStatus = (status: string) => list.json().data.find((b: { status: string; name: string }) => b.status === status && b.name.startsWith('Treasury') === (status === 'in_progress'));
    const treasury = (await ctx.app.inject({ method: 'GET', url: `/api/v1/bras/${byStatus('in_progress').id}`, headers })).json().data;
    expect(treasury.summary.total_scenarios).toBeGreaterThan(treasury.summary.assessed_scenarios);
    expect(treasury.summary.assessed_scenarios).toBeGreaterThan(0);
    const approved = (await ctx.app.inject({ method: 'GET', url: `/api/v1/bras/${byStatus('approved').id}`, headers })).json().data;
    expect(approved.summary.completion_percentage).toBe(100);
    // Linked to sub-controls of the demo library, with their recorded test results.
    expect(approved.controls.length).toBeGreaterThan(0);
    expect(approved.controls[0]).toMatchObject({ key_control_name: expect.any(String), sub_control_name: expect.any(String) });
    expect(approved.final_comment).toEqual(expect.any(String));
  });

  it('the reviewer (bank and insurance) does not see the asset management BRA', async () => {
    const reviewer = result.credentials.find((c) => c.role === 'reviewer')!;
    const list = await ctx.app.inject({ method: 'GET', url: '/api/v1/bras', headers: await signIn(reviewer.email, reviewer.password!) });
    expect(list.json().data.map((b: { legal_entity: { name: string } }) => b.legal_entity.name).sort()).toEqual(
      [...DEMO_BRAS.map((b) => b.legalEntity), DEMO_ROLL_FORWARD.legalEntity]
        .filter((name) => name !== 'Harbourview Asset Management Ltd')
        .sort(),
    );
  });

  it('rolls the approved BRA forward to FY2027, re-rated in part and in progress; its diff against the FY2026 approval shows the rating changes', async () => {
    const admin = result.credentials.find((c) => c.role === 'admin')!;
    const headers = await signIn(admin.email, admin.password!);
    const get = async (url: string) => {
      const response = await ctx.app.inject({ method: 'GET', url: `/api/v1${url}`, headers });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().data;
    };
    const list = (await get('/bras?page_size=100')) as { id: string; name: string; status: string; rolled_from_bra_id: string | null; snapshot_id: string | null }[];
    const next = list.find((b) => b.name === DEMO_ROLL_FORWARD.name)!;
    const source = list.find((b) => b.name === DEMO_ROLL_FORWARD.from)!;
    expect(next).toMatchObject({ status: 'in_progress', rolled_from_bra_id: source.id });
    const snapshots = (await get(`/bras/${next.id}/snapshots`)) as { id: string; bra_id: string; kind: string }[];
    expect(snapshots.map((s) => [s.kind, s.bra_id])).toEqual([
      ['created', next.id],
      ['approved', source.id],
    ]);
    const diff = await get(`/bras/${next.id}/diff?from=${source.snapshot_id}&to=current`);
    const changes = diff.ratings.map((r: { name: string; rating_type: string; to: { impact_score: number; likelihood_score: number } | null }) => [
      r.name,
      r.rating_type,
      r.to === null ? null : [r.to.impact_score, r.to.likelihood_score],
    ]);
    expect(changes).toEqual([
      ['Cheque and card forgery', 'inherent', null],
      ['Cheque and card forgery', 'residual', null],
      ['Cyber intrusion and data theft', 'residual', [4, 4]],
      ['Payment fraud by impersonation', 'residual', [2, 3]],
    ]);
    expect(diff.scenarios).toEqual({ added: [], removed: [], included: [], excluded: [] });
    // The rolled-forward BRA's review has begun: the assessor's note and the reviewer's verdicts.
    const detail = await get(`/bras/${next.id}`);
    expect(detail.comment_count).toBe(3);
    expect(detail.latest_verdicts.map((v: { verdict: string }) => v.verdict)).toEqual(['recommend_approval']);
  });

  it('the BRA under review carries the review: an assessor note, then the reviewer asks for changes and recommends approval', async () => {
    const reviewer = result.credentials.find((c) => c.role === 'reviewer')!;
    const assessor = result.credentials.find((c) => c.email.startsWith('marcus'))!;
    const headers = await signIn(reviewer.email, reviewer.password!);
    const list = (await ctx.app.inject({ method: 'GET', url: '/api/v1/bras', headers })).json().data;
    const bra = list.find((b: { name: string }) => b.name === REVIEWED_DEMO_BRA);
    expect(bra).toMatchObject({ status: 'under_review' });
    const comments = await ctx.app.inject({ method: 'GET', url: `/api/v1/bras/${bra.id}/comments`, headers });
    expect(comments.statusCode, comments.body).toBe(200);
    expect(comments.json().data.map((c: { author_user: { full_name: string }; verdict: string | null }) => [c.author_user.full_name, c.verdict])).toEqual([
      [assessor.fullName, null],
      [reviewer.fullName, 'changes_requested'],
      [reviewer.fullName, 'recommend_approval'],
    ]);
    const detail = (await ctx.app.inject({ method: 'GET', url: `/api/v1/bras/${bra.id}`, headers })).json().data;
    expect(detail.comment_count).toBe(3);
    expect(detail.latest_verdicts).toEqual([expect.objectContaining({ author_user: expect.objectContaining({ full_name: reviewer.fullName }), verdict: 'recommend_approval' })]);
  });

  it('the approved BRA names its approver, and its summary names the scenarios above appetite', async () => {
    const admin = result.credentials.find((c) => c.role === 'admin')!;
    const headers = await signIn(admin.email, admin.password!);
    const list = (await ctx.app.inject({ method: 'GET', url: '/api/v1/bras?status=approved', headers })).json().data;
    const detail = (await ctx.app.inject({ method: 'GET', url: `/api/v1/bras/${list[0].id}`, headers })).json().data;
    expect(detail.approved_by_user).toEqual({ id: detail.approved_by, full_name: admin.fullName });
    expect(detail.summary.scenarios_above_appetite).toHaveLength(detail.summary.risks_above_appetite);
    // The governance step lowers the bank's appetite after the approval: today's breaches are more than the approved ones.
    expect(detail.current_appetite_breaches.length).toBeGreaterThan(detail.summary.scenarios_above_appetite.length);
    for (const breach of detail.current_appetite_breaches) expect(breach.residual_score).toBeGreaterThan(breach.threshold);
  });
});
