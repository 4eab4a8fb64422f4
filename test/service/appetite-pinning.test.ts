import { describe, expect, it } from 'vitest';
import { NO_TERMS } from '../../src/platform/versions/change-terms.js';
import { addScenarioLink, createBra, createBraWorld, rateBoth } from '../support/bras-factories.js';
import { createLegalEntity } from '../support/factories.js';
import { createServiceContext } from '../support/services.js';

/**
 * Appetite pinning (answer/answer.ts), asked of the BRA service's get: an approved BRA is read under the
 * appetite its approval snapshot pinned, so a later appetite change leaves its flags and summary as the
 * approver saw them, while `current_appetite_breaches` shows the scenarios above today's appetite. A live BRA
 * follows today's appetite. Appetites change through the governance service, as an admin changes them.
 */
describe("appetite pinning: an approved BRA keeps its approval's appetite (bras.get)", async () => {
  const ctx = await createServiceContext();
  const w = await createBraWorld(ctx);
  const { bras, transitions } = ctx.services.bras;
  const approver = await ctx.callerOf(w.admin, 'bras.approve');
  const governor = await ctx.callerOf(w.admin, 'governance.risk_appetite.upsert');
  const setEntityAppetite = (legalEntityId: string, threshold_value: number) =>
    ctx.services.governance.upsert(governor, { risk_level: threshold_value > 12 ? 'High' : 'Medium', threshold_value, legal_entity_id: legalEntityId }, NO_TERMS);
  // The reviewer as a request resolves them now: each BRA below is of a fresh entity assigned to them.
  const read = async (braId: string) => (await bras.get(await ctx.callerOf(w.reviewer, 'bras.get'), braId)).data;

  /** A BRA of a fresh entity (under the enterprise default, 9), its scenarios rated: residual 16, 12 and 6, one excluded. */
  async function ratedBra() {
    const entity = await createLegalEntity(ctx, w.enterprise.id);
    await ctx.db.insertInto('entity_roles').values({ enterprise_id: w.enterprise.id, user_id: w.reviewer.id, legal_entity_id: entity.id }).execute();
    const bra = await createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: entity.id, status: 'in_progress', createdBy: w.admin.id });
    const links = { high: await addScenarioLink(ctx, bra), mid: await addScenarioLink(ctx, bra), low: await addScenarioLink(ctx, bra), excluded: await addScenarioLink(ctx, bra, false) };
    await rateBoth(ctx, links.high, [5, 5], [4, 4]);
    await rateBoth(ctx, links.mid, [5, 4], [4, 3]);
    await rateBoth(ctx, links.low, [4, 4], [3, 2]);
    await rateBoth(ctx, links.excluded, [5, 5], [5, 4]);
    const breach = (link: typeof links.high, residual_score: number, threshold: number) => expect.objectContaining({ id: link.id, residual_score, threshold });
    return { bra, entity, links, breach };
  }
  const flagsOf = (answer: Awaited<ReturnType<typeof read>>) =>
    Object.fromEntries(answer.scenarios.map((s) => [s.id, [s.applicable_threshold, s.above_appetite]]));

  it("keeps an approved BRA's flags and summary under its pinned appetite, and shows today's breaches beside them", async () => {
    const { bra, entity, links, breach } = await ratedBra();
    await transitions.approve(approver, bra.id, { final_comment: 'Signed off' }, NO_TERMS);
    const atApproval = await read(bra.id);
    expect(flagsOf(atApproval)).toEqual({
      [links.high.id]: [9, true],
      [links.mid.id]: [9, true],
      [links.low.id]: [9, false],
      [links.excluded.id]: [9, null],
    });
    expect(atApproval.summary.risks_above_appetite).toBe(2);
    expect(atApproval.current_appetite_breaches).toEqual(atApproval.summary.scenarios_above_appetite);

    // Raised to 15: only 16 is above today's appetite; the approved answer is as approved.
    await setEntityAppetite(entity.id, 15);
    const raised = await read(bra.id);
    expect(raised.summary).toEqual(atApproval.summary);
    expect(raised.scenarios).toEqual(atApproval.scenarios);
    expect(raised.current_appetite_breaches).toEqual([breach(links.high, 16, 15)]);

    // Lowered to 5: 16, 12 and 6 are above it today, highest first; the approved answer still as approved.
    await setEntityAppetite(entity.id, 5);
    const lowered = await read(bra.id);
    expect(lowered.summary).toEqual(atApproval.summary);
    expect(lowered.scenarios).toEqual(atApproval.scenarios);
    expect(lowered.current_appetite_breaches).toEqual([breach(links.high, 16, 5), breach(links.mid, 12, 5), breach(links.low, 6, 5)]);
  });

  it("reads a live BRA under today's appetite, with no current_appetite_breaches of its own", async () => {
    const { bra, entity, links, breach } = await ratedBra();
    expect((await read(bra.id)).summary.scenarios_above_appetite).toEqual([breach(links.high, 16, 9), breach(links.mid, 12, 9)]);
    await setEntityAppetite(entity.id, 12);
    const today = await read(bra.id);
    expect(flagsOf(today)).toMatchObject({ [links.high.id]: [12, true], [links.mid.id]: [12, false], [links.low.id]: [12, false] });
    expect(today.summary.scenarios_above_appetite).toEqual([breach(links.high, 16, 12)]);
    expect(today).not.toHaveProperty('current_appetite_breaches');
  });

  it('pins the appetite of the approval, not of an earlier one: a change before approving is what the approval keeps', async () => {
    const { bra, entity, links } = await ratedBra();
    await setEntityAppetite(entity.id, 5);
    await transitions.approve(approver, bra.id, {}, NO_TERMS);
    await setEntityAppetite(entity.id, 20);
    const answer = await read(bra.id);
    expect(flagsOf(answer)).toMatchObject({ [links.high.id]: [5, true], [links.mid.id]: [5, true], [links.low.id]: [5, true] });
    expect(answer.summary.risks_above_appetite).toBe(3);
    expect(answer.current_appetite_breaches).toEqual([]);
  });
});
