import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { auditEntries, countAuditEntries, expectAccessDenied } from '../support/audit.js';
import { addScenarioLink, createBra } from '../support/bras-factories.js';
import type { TestUser } from '../support/factories.js';
import { cast } from '../support/cast.js';

/** Review comments (issue 35): who may comment and when, verdicts, append-only, the get-BRA's count and latest verdicts. */
describe('BRA review comments', async () => {
  const ctx = await createTestContext();
  const w = await cast(ctx);
  const { call } = w;
  const newBra = (status: 'draft' | 'in_progress' | 'under_review' | 'approved' | 'cancelled') =>
    createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: w.entity.id, createdBy: w.assessor.id, status });
  const version = async (id: string) => (await ctx.db.selectFrom('bras').select(['row_version', 'status']).where('id', '=', id).executeTakeFirstOrThrow());

  it('assessors, reviewers and client admins comment while in progress; the answer names the author; audited as a bra_comment', async () => {
    const bra = await newBra('in_progress');
    const link = await addScenarioLink(ctx, bra);
    const before = await version(bra.id);
    const note = await call(w.assessor, 'POST', `/bras/${bra.id}/comments`, { body: 'Fraud ratings follow the Q2 loss data.', scenario_id: link.id });
    expect(note.statusCode, note.body).toBe(201);
    expect(note.json().data).toEqual({
      id: expect.any(String),
      bra_id: bra.id,
      scenario_id: link.id,
      body: 'Fraud ratings follow the Q2 loss data.',
      verdict: null,
      author_id: w.assessor.id,
      author_user: { id: w.assessor.id, full_name: w.assessor.fullName },
      created_at: expect.stringMatching(/Z$/),
    });
    const reviewer = await call(w.reviewer, 'POST', `/bras/${bra.id}/comments`, { body: 'Residual likelihood looks low.', verdict: 'changes_requested' });
    expect(reviewer.statusCode, reviewer.body).toBe(201);
    const admin = await call(w.admin, 'POST', `/bras/${bra.id}/comments`, { body: 'Noted.' });
    expect(admin.statusCode, admin.body).toBe(201);
    // A comment changes nothing of the BRA: neither its state nor its version (its ETag's).
    expect(await version(bra.id)).toEqual(before);
    const entries = await auditEntries(ctx, { entityType: 'bra_comment', entityId: reviewer.json().data.id });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ action_type: 'create', user_id: w.reviewer.id, enterprise_id: w.enterprise.id });
    expect(entries[0]!.action_details).toMatchObject({ operation: 'bras.comment.create', bra_id: bra.id, verdict: 'changes_requested', body: 'Residual likelihood looks low.' });
  });

  it('while under review too; a reviewer\'s comment on an approved, cancelled or draft BRA is 409 INVALID_STATE and writes nothing', async () => {
    const review = await newBra('under_review');
    expect((await call(w.reviewer, 'POST', `/bras/${review.id}/comments`, { body: 'Ready', verdict: 'recommend_approval' })).statusCode).toBe(201);
    for (const status of ['approved', 'cancelled', 'draft'] as const) {
      const bra = await newBra(status);
      const count = await countAuditEntries(ctx, w.enterprise.id);
      const response = await call(w.reviewer, 'POST', `/bras/${bra.id}/comments`, { body: 'Too late' });
      expect(response.statusCode, `${status}: ${response.body}`).toBe(409);
      expect(response.json()).toMatchObject({ code: 'INVALID_STATE' });
      expect(await countAuditEntries(ctx, w.enterprise.id)).toBe(count);
    }
    expect(await ctx.db.selectFrom('bra_comments').select('id').where('enterprise_id', '=', w.enterprise.id).where('body', '=', 'Too late').execute()).toEqual([]);
  });

  it('a verdict only from client admins and reviewers: an assessor\'s is 403; unassigned readers 403; another enterprise 404', async () => {
    const bra = await newBra('in_progress');
    await expectAccessDenied(ctx, w.assessor, await call(w.assessor, 'POST', `/bras/${bra.id}/comments`, { body: 'Looks fine', verdict: 'recommend_approval' }), 'bras.comment.create');
    expect((await call(w.admin, 'POST', `/bras/${bra.id}/comments`, { body: 'Approve', verdict: 'recommend_approval' })).statusCode).toBe(201);
    await expectAccessDenied(ctx, w.outsideReviewer, await call(w.outsideReviewer, 'POST', `/bras/${bra.id}/comments`, { body: 'x' }), 'bras.comment.create');
    await expectAccessDenied(ctx, w.outsideReviewer, await call(w.outsideReviewer, 'GET', `/bras/${bra.id}/comments`), 'bras.comment.list');
    expect((await call(w.otherAdmin, 'POST', `/bras/${bra.id}/comments`, { body: 'x' })).statusCode).toBe(404);
    expect((await call(w.otherAdmin, 'GET', `/bras/${bra.id}/comments`)).statusCode).toBe(404);
    expect((await call(w.admin, 'GET', `/bras/${randomUUID()}/comments`)).statusCode).toBe(404);
  });

  it('a scenario link of another BRA is 400 INVALID_REFERENCE; a blank body, an unknown verdict or member 422', async () => {
    const bra = await newBra('in_progress');
    const otherLink = await addScenarioLink(ctx, await newBra('in_progress'));
    const foreign = await call(w.reviewer, 'POST', `/bras/${bra.id}/comments`, { body: 'x', scenario_id: otherLink.id });
    expect(foreign.statusCode, foreign.body).toBe(400);
    expect(foreign.json()).toMatchObject({ code: 'INVALID_REFERENCE', details: { field: 'scenario_id' } });
    for (const payload of [{ body: '   ' }, { body: 'x', verdict: 'approve' }, { body: 'x', author_id: w.admin.id }, { body: 'x'.repeat(5001) }, {}]) {
      expect((await call(w.reviewer, 'POST', `/bras/${bra.id}/comments`, payload)).statusCode, JSON.stringify(payload).slice(0, 60)).toBe(422);
    }
  });

  it('lists oldest first, paginated, with the authors\' names; the get-BRA counts them and shows the latest verdict per user', async () => {
    const bra = await newBra('in_progress');
    const post = async (user: TestUser, body: string, verdict?: string) => {
      const response = await call(user, 'POST', `/bras/${bra.id}/comments`, { body, ...(verdict !== undefined ? { verdict } : {}) });
      expect(response.statusCode, response.body).toBe(201);
      return response.json().data;
    };
    const first = await post(w.assessor, 'Ratings are in.');
    await post(w.reviewer, 'Controls on card fraud are weak.', 'changes_requested');
    await post(w.admin, 'Agreed with the reviewer.', 'changes_requested');
    const last = await post(w.reviewer, 'Fixed; fine now.', 'recommend_approval');
    await post(w.assessor, 'Thanks.');

    const page1 = await call(w.reviewer, 'GET', `/bras/${bra.id}/comments?page_size=2`);
    expect(page1.statusCode, page1.body).toBe(200);
    expect(page1.json().pagination).toMatchObject({ page: 1, page_size: 2, total: 5, total_pages: 3, has_next: true });
    expect(page1.json().data.map((c: { body: string }) => c.body)).toEqual(['Ratings are in.', 'Controls on card fraud are weak.']);
    expect(page1.json().data[0]).toEqual(first);
    const page3 = await call(w.assessor, 'GET', `/bras/${bra.id}/comments?page=3&page_size=2`);
    expect(page3.json().data.map((c: { body: string }) => c.body)).toEqual(['Thanks.']);

    const detail = (await call(w.reviewer, 'GET', `/bras/${bra.id}`)).json().data;
    expect(detail.comment_count).toBe(5);
    expect(detail.latest_verdicts).toEqual([
      { author_id: w.reviewer.id, author_user: { id: w.reviewer.id, full_name: w.reviewer.fullName }, verdict: 'recommend_approval', comment_id: last.id, created_at: last.created_at },
      { author_id: w.admin.id, author_user: { id: w.admin.id, full_name: w.admin.fullName }, verdict: 'changes_requested', comment_id: expect.any(String), created_at: expect.any(String) },
    ]);
    const fresh = (await call(w.admin, 'GET', `/bras/${(await newBra('draft')).id}`)).json().data;
    expect(fresh).toMatchObject({ comment_count: 0, latest_verdicts: [] });
  });

  it('reviewers still change nothing else: their scenario, rating and BRA changes stay 403', async () => {
    const bra = await newBra('in_progress');
    const link = await addScenarioLink(ctx, bra);
    await expectAccessDenied(ctx, w.reviewer, await call(w.reviewer, 'POST', `/bras/${bra.id}/ratings`, { bra_risk_scenario_id: link.id, rating_type: 'inherent', impact_score: 2, likelihood_score: 2 }));
    await expectAccessDenied(ctx, w.reviewer, await call(w.reviewer, 'POST', `/bras/${bra.id}/scenarios/bulk`, { risk_scenario_ids: [link.risk_scenario_id] }));
    await expectAccessDenied(ctx, w.reviewer, await call(w.reviewer, 'POST', `/bras/${bra.id}/submit`, {}));
  });

  it('comments are never edited or deleted: the database refuses UPDATE, DELETE and TRUNCATE', async () => {
    const bra = await newBra('in_progress');
    const id = (await call(w.reviewer, 'POST', `/bras/${bra.id}/comments`, { body: 'Kept forever' })).json().data.id;
    await expect(sql`update bra_comments set body = 'changed' where id = ${id}`.execute(ctx.db)).rejects.toThrow(/append-only/);
    await expect(sql`delete from bra_comments where id = ${id}`.execute(ctx.db)).rejects.toThrow(/append-only/);
    await expect(sql`truncate bra_comments`.execute(ctx.db)).rejects.toThrow(/append-only/);
    expect(await ctx.db.selectFrom('bra_comments').select('body').where('id', '=', id).executeTakeFirstOrThrow()).toEqual({ body: 'Kept forever' });
  });
});
