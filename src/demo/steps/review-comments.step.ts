import { NO_TERMS } from '../../platform/versions/change-terms.js';
import type { Caller } from '../../platform/auth/principal.js';
import { need, personCaller, type DemoContext, type DemoStep } from '../demo-context.js';

/** The demo BRA the reviewer's voice is heard on: under review, in the bank the reviewer is assigned to. */
export const REVIEWED_DEMO_BRA = 'Commercial Lending credit process BRA FY2026';


/**
 * The review of one BRA (in progress or under review, in the bank): the assessor's note on its first
 * scenario, then the reviewer asks for changes on it and, once answered, recommends approval. Takes any
 * such BRA's id, so a later step can have the same conversation on another BRA. Returns the comments' count.
 */
export async function addReviewComments(context: DemoContext, braId: string): Promise<number> {
  const enterpriseId = need(context.enterpriseId, 'the enterprise');
  const assessor = personCaller(context, 'assessor_bank', enterpriseId);
  const reviewer = personCaller(context, 'reviewer', enterpriseId);
  const { bras, comments } = context.services.bras;
  const scenario = (await bras.get(reviewer, braId)).data.scenarios.find((candidate) => candidate.included) ?? null;
  const scenarioId = scenario === null ? null : scenario.id;
  const about = scenario === null ? 'the scenarios' : `"${scenario.name}"`;
  await comments.add(assessor, braId, {
    body: `Ratings of ${about} follow the 2025 loss events and the latest control tests.`,
    scenario_id: scenarioId,
  }, NO_TERMS);
  await comments.add(reviewer, braId, {
    body: `The residual likelihood of ${about} leans on a control whose last test is over a year old: please retest it or justify the rating.`,
    scenario_id: scenarioId,
    verdict: 'changes_requested',
  }, NO_TERMS);
  await comments.add(reviewer, braId, {
    body: 'The justification given is sufficient; the assessment can go to approval.',
    verdict: 'recommend_approval',
  }, NO_TERMS);
  return 3;
}

/** The reviewer's voice on the demo BRA under review (GET /api/v1/bras/{id}/comments). */
export const reviewCommentsStep: DemoStep = {
  title: 'Review comments',
  async run(context: DemoContext) {
    const clientAdmin = need(context.actors.clientAdmin, 'the client admin');
    const page = await context.services.bras.bras.list(clientAdmin, { page_size: 100 });
    const bra = need(page.data.find((candidate) => candidate.name === REVIEWED_DEMO_BRA), `demo BRA ${REVIEWED_DEMO_BRA}`);
    const count = await addReviewComments(context, bra.id);
    context.log(`  ${REVIEWED_DEMO_BRA}: ${count} comments, the reviewer's latest verdict recommend_approval`);
  },
};
