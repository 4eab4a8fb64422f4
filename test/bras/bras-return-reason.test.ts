import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { createBra } from '../support/bras-factories.js';
import type { TestUser } from '../support/factories.js';
import { cast } from '../support/cast.js';

/** Issue 47: the get-BRA answer names why it was returned (until it is submitted again) and its moves, who and why. */
describe('BRA return reason and transitions', async () => {
  const ctx = await createTestContext();
  const w = await cast(ctx);
  const { call } = w;
  const get = async (user: TestUser, id: string) => {
    const response = await call(user, 'GET', `/bras/${id}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  };
  const newBra = () => createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: w.entity.id, createdBy: w.assessor.id, status: 'in_progress' });

  it('a never-returned BRA has return_reason null; its moves list who and when, oldest first', async () => {
    const bra = await newBra();
    expect((await get(w.assessor, bra.id)).return_reason).toBeNull();
    expect((await call(w.assessor, 'POST', `/bras/${bra.id}/submit`, {})).statusCode).toBe(200);
    const answer = await get(w.reviewer, bra.id);
    expect(answer.return_reason).toBeNull();
    expect(answer.transitions).toEqual([
      { from: 'in_progress', to: 'under_review', by_user: { id: w.assessor.id, full_name: w.assessor.fullName }, at: expect.stringMatching(/Z$/), reason: null },
    ]);
  });

  it('returned: the reason, who and when, to the assessor and the reviewer; null again once resubmitted; the timeline keeps every move with its why', async () => {
    const bra = await newBra();
    expect((await call(w.assessor, 'POST', `/bras/${bra.id}/submit`, {})).statusCode).toBe(200);
    const returned = await call(w.admin, 'POST', `/bras/${bra.id}/return`, { comment: 'Rate the fraud scenarios again' });
    expect(returned.statusCode, returned.body).toBe(200);
    const expected = {
      reason: 'Rate the fraud scenarios again',
      returned_by: w.admin.id,
      returned_by_user: { id: w.admin.id, full_name: w.admin.fullName },
      returned_at: expect.stringMatching(/Z$/),
    };
    expect((await get(w.assessor, bra.id)).return_reason).toEqual(expected);
    expect((await get(w.reviewer, bra.id)).return_reason).toEqual(expected);

    expect((await call(w.assessor, 'POST', `/bras/${bra.id}/submit`, {})).statusCode).toBe(200);
    const resubmitted = await get(w.assessor, bra.id);
    expect(resubmitted.return_reason).toBeNull();
    expect(resubmitted.transitions.map((t: { from: string; to: string; reason: string | null; by_user: { id: string } }) => [t.from, t.to, t.by_user.id, t.reason])).toEqual([
      ['in_progress', 'under_review', w.assessor.id, null],
      ['under_review', 'in_progress', w.admin.id, 'Rate the fraud scenarios again'],
      ['in_progress', 'under_review', w.assessor.id, null],
    ]);

    // A return without a comment: returned all the same, with no reason given.
    expect((await call(w.admin, 'POST', `/bras/${bra.id}/return`, {})).statusCode).toBe(200);
    expect((await get(w.assessor, bra.id)).return_reason).toEqual({ ...expected, reason: null });

    const cancelled = await call(w.admin, 'POST', `/bras/${bra.id}/cancel`, { cancellation_reason: 'Merged into the group BRA' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const after = await get(w.admin, bra.id);
    expect(after.return_reason).toBeNull();
    expect(after.transitions.at(-1)).toMatchObject({ from: 'in_progress', to: 'cancelled', reason: 'Merged into the group BRA', by_user: { id: w.admin.id } });
  });

  it("another enterprise's BRA stays 404: the timeline is read only through the BRA's own answer", async () => {
    const bra = await newBra();
    expect((await call(w.otherAdmin, 'GET', `/bras/${bra.id}`)).statusCode).toBe(404);
  });
});
