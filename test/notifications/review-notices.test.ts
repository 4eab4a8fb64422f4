import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { addScenarioLink, createBra, rateBoth } from '../support/bras-factories.js';
import { cast } from '../support/cast.js';
import { assignEntity, createUser, type TestUser } from '../support/factories.js';

type Notification = { id: string; kind: string; bra_id: string; title: string; body: string | null; actor_id: string | null; read_at: string | null };

/**
 * Notifications of the review loop (issue 49): a submitted BRA reaches its client admins and the reviewers
 * assigned to it, and nobody else; a returned, approved or cancelled one its assessor, with the reason; a
 * comment the assessor, and the assessor's reply the reviewers. Never the person who acted, a deactivated
 * member, another entity's reviewer or another tenant. Each person lists and marks only their own.
 */
describe('notifications of the review loop', async () => {
  const ctx = await createTestContext();
  const w = await cast(ctx);
  const { call } = w;
  const mine = async (user: TestUser, query = '') => (await call(user, 'GET', `/notifications${query}`)).json() as { data: Notification[]; unread_count: number; pagination: { total: number } };
  const about = async (user: TestUser, braId: string) => (await mine(user, '?page_size=100')).data.filter((n) => n.bra_id === braId);

  /** An in-progress BRA of the assessor's, on the entity, rated so that it can be approved. */
  async function assessorsBra() {
    const bra = await createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: w.entity.id, createdBy: w.assessor.id, status: 'in_progress' });
    const link = await addScenarioLink(ctx, bra);
    await rateBoth(ctx, link, [3, 3], [2, 2]);
    return bra;
  }

  it('a submitted BRA reaches the client admins and the reviewers who read it, and nobody else', async () => {
    const secondAdmin = await createUser(ctx, { role: 'admin', enterpriseId: w.enterprise.id });
    const gone = await createUser(ctx, { role: 'reviewer', enterpriseId: w.enterprise.id });
    await assignEntity(ctx, gone, w.entity.id);
    await ctx.db.updateTable('enterprise_members').set({ active: false, deactivated_at: new Date() }).where('user_id', '=', gone.id).execute();
    const bra = await assessorsBra();
    expect((await call(w.assessor, 'POST', `/bras/${bra.id}/submit`)).statusCode).toBe(200);
    for (const told of [w.admin, secondAdmin, w.reviewer]) {
      expect(await about(told, bra.id), told.role).toEqual([
        expect.objectContaining({ kind: 'bra_submitted', title: `${bra.name} awaits your review`, actor_id: w.assessor.id, read_at: null }),
      ]);
    }
    for (const untold of [w.assessor, w.outsideReviewer, w.outsideAssessor, w.unitAssessor, w.otherAdmin]) expect(await about(untold, bra.id)).toEqual([]);
    expect(await ctx.db.selectFrom('notifications').select('id').where('user_id', '=', gone.id).execute()).toEqual([]);
  });

  it('returned, approved and cancelled reach the assessor with the reason; never the one who acted', async () => {
    const bra = await assessorsBra();
    await call(w.assessor, 'POST', `/bras/${bra.id}/submit`);
    const returned = await call(w.admin, 'POST', `/bras/${bra.id}/return`, { comment: 'Rate the card-not-present scenario again with Q3 losses.' });
    expect(returned.statusCode, returned.body).toBe(200);
    expect((await about(w.assessor, bra.id)).map((n) => [n.kind, n.body])).toEqual([['bra_returned', 'Rate the card-not-present scenario again with Q3 losses.']]);
    await call(w.assessor, 'POST', `/bras/${bra.id}/submit`);
    expect((await call(w.admin, 'POST', `/bras/${bra.id}/approve`, { final_comment: 'Signed off' })).statusCode).toBe(200);
    expect((await about(w.assessor, bra.id)).map((n) => [n.kind, n.body])).toEqual([['bra_approved', 'Signed off'], ['bra_returned', 'Rate the card-not-present scenario again with Q3 losses.']]);
    // The client admin who acted hears only of the two submissions, not of their own moves.
    expect((await about(w.admin, bra.id)).map((n) => n.kind)).toEqual(['bra_submitted', 'bra_submitted']);

    const other = await assessorsBra();
    expect((await call(w.admin, 'POST', `/bras/${other.id}/cancel`, { cancellation_reason: 'Merged into the group BRA' })).statusCode).toBe(200);
    expect((await about(w.assessor, other.id)).map((n) => [n.kind, n.body])).toEqual([['bra_cancelled', 'Merged into the group BRA']]);
  });

  it('an assessor who no longer reads the BRA is not told of it', async () => {
    const leaver = await createUser(ctx, { role: 'assessor', enterpriseId: w.enterprise.id });
    const bra = await createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: w.entity.id, createdBy: leaver.id, status: 'under_review' });
    await call(w.admin, 'POST', `/bras/${bra.id}/return`, { comment: 'Again' });
    expect(await about(leaver, bra.id)).toEqual([]);
  });

  it('a comment reaches the assessor; the assessor’s reply reaches the reviewers', async () => {
    const bra = await assessorsBra();
    expect((await call(w.reviewer, 'POST', `/bras/${bra.id}/comments`, { body: 'Residual likelihood looks low.' })).statusCode).toBe(201);
    expect((await about(w.assessor, bra.id)).map((n) => [n.kind, n.body])).toEqual([['bra_commented', 'Residual likelihood looks low.']]);
    // A comment opens on the BRA's Review tab.
    expect((await about(w.assessor, bra.id))[0]).toMatchObject({ subject: { type: 'bra', id: bra.id, name: bra.name }, link: `/bras/${bra.id}?tab=review` });
    expect((await call(w.assessor, 'POST', `/bras/${bra.id}/comments`, { body: 'It follows the Q2 loss data.' })).statusCode).toBe(201);
    expect((await about(w.reviewer, bra.id)).map((n) => [n.kind, n.body])).toEqual([['bra_commented', 'It follows the Q2 loss data.']]);
    expect((await about(w.admin, bra.id)).map((n) => n.body)).toEqual(['It follows the Q2 loss data.']);
    expect(await about(w.outsideReviewer, bra.id)).toEqual([]);
  });

  it('each person lists and marks only their own: unread count, unread_only, ids and all', async () => {
    const bra = await assessorsBra();
    await call(w.assessor, 'POST', `/bras/${bra.id}/submit`);
    const reviewerOwn = (await about(w.reviewer, bra.id))[0]!;
    const adminOwn = (await about(w.admin, bra.id))[0]!;
    // Marking someone else's notification changes nothing.
    const foreign = await call(w.reviewer, 'POST', '/notifications/read', { ids: [adminOwn.id] });
    expect(foreign.json().data.marked).toBe(0);
    expect((await about(w.admin, bra.id))[0]!.read_at).toBeNull();
    const before = (await mine(w.reviewer)).unread_count;
    const marked = await call(w.reviewer, 'POST', '/notifications/read', { ids: [reviewerOwn.id] });
    expect(marked.statusCode, marked.body).toBe(200);
    expect(marked.json().data).toEqual({ marked: 1, unread_count: before - 1 });
    expect((await mine(w.reviewer, '?unread_only=true')).data.map((n) => n.id)).not.toContain(reviewerOwn.id);
    const all = await call(w.admin, 'POST', '/notifications/read', { all: true });
    expect(all.json().data.unread_count).toBe(0);
    expect((await mine(w.admin)).unread_count).toBe(0);
    for (const body of [{}, { ids: [reviewerOwn.id], all: true }]) expect((await call(w.reviewer, 'POST', '/notifications/read', body)).statusCode).toBe(422);
    expect((await call(w.superAdmin, 'GET', '/notifications')).statusCode).toBe(403);
  });
});
