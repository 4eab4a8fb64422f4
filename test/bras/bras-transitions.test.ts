import { describe, expect, it } from 'vitest';
import { sessionHeaders } from '../support/api.js';
import { createTestContext } from '../support/app.js';
import { auditEntries, expectAccessDenied } from '../support/audit.js';
import { addScenarioLink, createBra, createBraWorld, rateBoth, addRating } from '../support/bras-factories.js';
import type { TestUser } from '../support/factories.js';

type Status = 'draft' | 'in_progress' | 'under_review' | 'approved' | 'cancelled';

/** 3.1 and D6.7: submit, return, approve, cancel, with their preconditions and exact codes. */
describe('BRA transitions', async () => {
  const ctx = await createTestContext();
  const w = await createBraWorld(ctx);
  const headersOf = sessionHeaders(ctx);
  const post = async (user: TestUser, url: string, payload?: unknown) =>
    ctx.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: await headersOf(user), ...(payload !== undefined ? { payload: payload as object } : {}) });
  const newBra = (status: Status, createdBy = w.assessor.id) =>
    createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: w.entity.id, createdBy, status });
  const rowOf = (id: string) => ctx.db.selectFrom('bras').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const expectState = (response: { statusCode: number; json(): any }, code = 'INVALID_STATE') => {
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code });
  };

  describe('submit and return (D6.7)', () => {
    it('the creating assessor submits in_progress → under_review; a client admin returns it to in_progress with a comment', async () => {
      const bra = await newBra('in_progress');
      const submitted = await post(w.assessor, `/bras/${bra.id}/submit`);
      expect(submitted.statusCode, submitted.body).toBe(200);
      expect(submitted.json().data).toEqual({ id: bra.id, status: 'under_review', updated_at: expect.stringMatching(/Z$/) });
      const returned = await post(w.admin, `/bras/${bra.id}/return`, { comment: 'Rate the fraud scenarios again' });
      expect(returned.statusCode, returned.body).toBe(200);
      expect(returned.json().data.status).toBe('in_progress');
      const entries = await auditEntries(ctx, { entityId: bra.id, action: 'update' });
      expect(entries.map((e) => e.action_details)).toEqual([
        expect.objectContaining({ operation: 'bras.submit', status: { from: 'in_progress', to: 'under_review' } }),
        expect.objectContaining({ operation: 'bras.return', status: { from: 'under_review', to: 'in_progress' }, comment: 'Rate the fraud scenarios again' }),
      ]);
    });

    it('submit of anything but in_progress and return of anything but under_review → 409 INVALID_STATE (D10.2)', async () => {
      for (const status of ['draft', 'under_review', 'approved', 'cancelled'] as const) expectState(await post(w.admin, `/bras/${(await newBra(status)).id}/submit`));
      for (const status of ['draft', 'in_progress', 'approved', 'cancelled'] as const) expectState(await post(w.admin, `/bras/${(await newBra(status)).id}/return`, {}));
    });

    it('submit: reviewers and other assessors 403; return: only client admins (D5)', async () => {
      const bra = await newBra('in_progress', w.admin.id);
      await expectAccessDenied(ctx, w.reviewer, await post(w.reviewer, `/bras/${bra.id}/submit`), 'bras.submit');
      await expectAccessDenied(ctx, w.assessor, await post(w.assessor, `/bras/${bra.id}/submit`), 'bras.submit');
      const review = await newBra('under_review');
      await expectAccessDenied(ctx, w.assessor, await post(w.assessor, `/bras/${review.id}/return`), 'bras.return');
      expect((await rowOf(review.id)).status).toBe('under_review');
    });
  });

  describe('approve (3.1, 4.2)', () => {
    it('approves an under_review BRA: the 4.2 answer, the approval fields, the approved snapshot and an approve entry with name, final comment and snapshot id', async () => {
      const bra = await newBra('under_review');
      const link = await addScenarioLink(ctx, bra);
      await rateBoth(ctx, link, [4, 4], [2, 3]);
      const response = await post(w.admin, `/bras/${bra.id}/approve`, { final_comment: 'Residual risks accepted' });
      expect(response.statusCode, response.body).toBe(200);
      const data = response.json().data;
      expect(data).toEqual({
        id: bra.id,
        status: 'approved',
        approved_by: w.admin.id,
        approved_at: expect.stringMatching(/Z$/),
        final_comment: 'Residual risks accepted',
        snapshot_id: expect.any(String),
      });
      const row = await rowOf(bra.id);
      expect(row).toMatchObject({ status: 'approved', approved_by: w.admin.id, snapshot_id: data.snapshot_id, final_comment: 'Residual risks accepted' });
      expect(row.completion_date).toBe(new Date().toISOString().slice(0, 10));
      const snapshot = await ctx.db.selectFrom('bra_snapshots').selectAll().where('id', '=', data.snapshot_id).executeTakeFirstOrThrow();
      expect(snapshot).toMatchObject({ kind: 'approved', bra_id: bra.id, created_by: w.admin.id });
      expect(snapshot.content).toMatchObject({ status: 'approved', snapshot_id: data.snapshot_id, summary: { total_scenarios: 1, assessed_scenarios: 1 } });
      const [entry] = await auditEntries(ctx, { entityId: bra.id, action: 'approve' });
      expect(entry).toMatchObject({ entity_type: 'bra', user_id: w.admin.id, status: 'success' });
      expect(entry!.action_details).toMatchObject({ operation: 'bras.approve', name: bra.name, final_comment: 'Residual risks accepted', snapshot_id: data.snapshot_id });
    });

    it('approves from in_progress without a body; final_comment is then null', async () => {
      const bra = await newBra('in_progress');
      await rateBoth(ctx, await addScenarioLink(ctx, bra), [3, 3], [1, 2]);
      const response = await ctx.app.inject({ method: 'POST', url: `/api/v1/bras/${bra.id}/approve`, headers: await headersOf(w.admin) });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().data.final_comment).toBeNull();
    });

    it('an included scenario without both ratings → 409 RATINGS_INCOMPLETE listing the links in details.missing; nothing changes', async () => {
      const bra = await newBra('under_review');
      const rated = await addScenarioLink(ctx, bra);
      await rateBoth(ctx, rated, [2, 2], [1, 1]);
      const inherentOnly = await addScenarioLink(ctx, bra);
      await addRating(ctx, inherentOnly, 'inherent', 3, 3);
      const unrated = await addScenarioLink(ctx, bra);
      const response = await post(w.admin, `/bras/${bra.id}/approve`, { final_comment: 'ok' });
      expectState(response, 'RATINGS_INCOMPLETE');
      expect(response.json().details.missing.sort()).toEqual([inherentOnly.id, unrated.id].sort());
      expect(await rowOf(bra.id)).toMatchObject({ status: 'under_review', snapshot_id: null, approved_by: null });
      expect(await ctx.db.selectFrom('bra_snapshots').select('id').where('bra_id', '=', bra.id).execute()).toEqual([]);
      expect(await auditEntries(ctx, { entityId: bra.id, action: 'approve' })).toEqual([]);
    });

    it('excluded scenarios need no ratings (D6.7)', async () => {
      const bra = await newBra('under_review');
      await rateBoth(ctx, await addScenarioLink(ctx, bra), [5, 5], [3, 4]);
      await addScenarioLink(ctx, bra, false);
      const response = await post(w.admin, `/bras/${bra.id}/approve`, {});
      expect(response.statusCode, response.body).toBe(200);
    });

    it('draft, approved and cancelled → 409 INVALID_STATE (D6.7)', async () => {
      for (const status of ['draft', 'approved', 'cancelled'] as const) expectState(await post(w.admin, `/bras/${(await newBra(status)).id}/approve`, {}));
    });

    it('only client admins approve: assessors and reviewers 403, other enterprises 404 (D5, D10.1)', async () => {
      const bra = await newBra('under_review');
      await expectAccessDenied(ctx, w.assessor, await post(w.assessor, `/bras/${bra.id}/approve`, {}), 'bras.approve');
      await expectAccessDenied(ctx, w.reviewer, await post(w.reviewer, `/bras/${bra.id}/approve`, {}), 'bras.approve');
      expect((await post(w.otherAdmin, `/bras/${bra.id}/approve`, {})).statusCode).toBe(404);
      expect((await post(w.admin, `/bras/${bra.id}/approve`, { final_comment: 'x'.repeat(5001) })).statusCode).toBe(422);
      expect((await post(w.admin, `/bras/${bra.id}/approve`, { comment: 'wrong member' })).statusCode).toBe(422);
    });
  });

  describe('cancel (3.1)', () => {
    it('cancels draft, in_progress and under_review BRAs with the 4.2 answer and a cancel entry', async () => {
      for (const status of ['draft', 'in_progress', 'under_review'] as const) {
        const bra = await newBra(status);
        const response = await post(w.admin, `/bras/${bra.id}/cancel`, { cancellation_reason: 'Merged into the group BRA' });
        expect(response.statusCode, response.body).toBe(200);
        expect(response.json().data).toEqual({
          id: bra.id,
          status: 'cancelled',
          cancelled_by: w.admin.id,
          cancelled_at: expect.stringMatching(/Z$/),
          cancellation_reason: 'Merged into the group BRA',
        });
        const [entry] = await auditEntries(ctx, { entityId: bra.id, action: 'cancel' });
        expect(entry!.action_details).toMatchObject({ operation: 'bras.cancel', name: bra.name, cancellation_reason: 'Merged into the group BRA' });
      }
    });

    it('an approved BRA cannot be cancelled, a cancelled one cannot be cancelled again or reopened (3.1 rules 2–3)', async () => {
      expectState(await post(w.admin, `/bras/${(await newBra('approved')).id}/cancel`, {}));
      const cancelled = await newBra('cancelled');
      expectState(await post(w.admin, `/bras/${cancelled.id}/cancel`, {}));
      expectState(await post(w.admin, `/bras/${cancelled.id}/return`, {}));
      expectState(await post(w.assessor, `/bras/${cancelled.id}/submit`, {}));
    });

    it('the reason is optional; only client admins cancel', async () => {
      const bra = await newBra('draft');
      await expectAccessDenied(ctx, w.assessor, await post(w.assessor, `/bras/${bra.id}/cancel`), 'bras.cancel');
      await expectAccessDenied(ctx, w.reviewer, await post(w.reviewer, `/bras/${bra.id}/cancel`), 'bras.cancel');
      const response = await post(w.admin, `/bras/${bra.id}/cancel`);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().data.cancellation_reason).toBeNull();
    });
  });

  it('approve and cancel of one BRA at once: exactly one wins, the other gets 409 INVALID_STATE (row lock)', async () => {
    for (let round = 0; round < 3; round += 1) {
      const bra = await newBra('under_review');
      await rateBoth(ctx, await addScenarioLink(ctx, bra), [3, 4], [2, 2]);
      const [approve, cancel] = await Promise.all([post(w.admin, `/bras/${bra.id}/approve`, {}), post(w.admin, `/bras/${bra.id}/cancel`, {})]);
      const codes = [approve.statusCode, cancel.statusCode].sort();
      expect(codes, `${approve.body} ${cancel.body}`).toEqual([200, 409]);
      const loser = approve.statusCode === 409 ? approve : cancel;
      expect(loser.json()).toMatchObject({ code: 'INVALID_STATE' });
      const row = await rowOf(bra.id);
      expect(row.status).toBe(approve.statusCode === 200 ? 'approved' : 'cancelled');
      const decisive = [...(await auditEntries(ctx, { entityId: bra.id, action: 'approve' })), ...(await auditEntries(ctx, { entityId: bra.id, action: 'cancel' }))];
      expect(decisive).toHaveLength(1);
      if (row.status === 'cancelled') expect(await ctx.db.selectFrom('bra_snapshots').select('id').where('bra_id', '=', bra.id).execute()).toEqual([]);
    }
  });

  it('bra_count of the enterprise list follows creations and cancellations (D9.1)', async () => {
    const countOf = async () => {
      const response = await ctx.app.inject({ method: 'GET', url: '/api/v1/admin/enterprises?page_size=100', headers: await headersOf(w.superAdmin) });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().data.find((e: { id: string }) => e.id === w.other.id).bra_count as number;
    };
    const before = await countOf();
    const created = await post(w.otherAdmin, '/bras', { name: 'Counted BRA', legal_entity_id: w.otherEntity.id, period: 'FY2026', assessor: 'A' });
    expect(created.statusCode, created.body).toBe(201);
    await post(w.otherAdmin, '/bras', { name: 'Cancelled BRA', legal_entity_id: w.otherEntity.id, period: 'FY2026', assessor: 'A' });
    expect(await countOf()).toBe(before + 2);
    const cancelledId = (await ctx.db.selectFrom('bras').select('id').where('name', '=', 'Cancelled BRA').executeTakeFirstOrThrow()).id;
    expect((await post(w.otherAdmin, `/bras/${cancelledId}/cancel`, {})).statusCode).toBe(200);
    expect(await countOf()).toBe(before + 1);
  });
});
