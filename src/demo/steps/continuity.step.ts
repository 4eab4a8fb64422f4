import { NO_TERMS } from '../../platform/versions/change-terms.js';
import { DEMO_ENTERPRISE } from '../demo-data.js';
import { need, type DemoContext, type DemoStep, clientAdminOf } from '../demo-context.js';
import { assessorCaller, braCountNote } from './bras.step.js';
import { addReviewComments } from './review-comments.step.js';

/** The next period of the approved demo BRA, and the ratings its assessor has recorded so far. */
export const DEMO_ROLL_FORWARD = {
  from: 'Retail Banking fraud risk assessment FY2026',
  name: 'Retail Banking fraud risk assessment FY2027',
  legalEntity: 'Harbourview Bank plc',
  period: 'FY2027',
  startDate: '2026-11-16',
  createdBy: 'assessor_bank',
  /** Impersonation improves (dual authorisation), cyber intrusion worsens; card forgery is not yet rated again. */
  ratings: [
    { scenario: 'Payment fraud by impersonation', inherent: [5, 4], residual: [2, 3] },
    { scenario: 'Cyber intrusion and data theft', inherent: [5, 3], residual: [4, 4] },
  ],
} as const;

/**
 * Continuity: the assessor rolls the approved Retail Banking BRA forward to FY2027 and re-rates two scenarios,
 * which moves it to in_progress, and the review begins (comments); the diff against the FY2026 approval shows what changed. Runs after the
 * actions step, so the FY2026 BRA's open actions are listed for re-linking. The BRA count note is recounted.
 */
export const continuityStep: DemoStep = {
  title: 'The next period: a BRA rolled forward from its approval',
  async run(context: DemoContext) {
    const { clientAdmin, enterpriseId } = clientAdminOf(context);
    const { bras, content, rollForward, diff } = context.services.bras;
    const all = await bras.list(clientAdmin, { page_size: 100 });
    const source = need(all.data.find((b) => b.name === DEMO_ROLL_FORWARD.from && b.status === 'approved'), `the approved BRA ${DEMO_ROLL_FORWARD.from}`);
    const assessor = assessorCaller(context, DEMO_ROLL_FORWARD.createdBy, enterpriseId);
    const next = await rollForward.rollForward(assessor, source.id, {
      name: DEMO_ROLL_FORWARD.name,
      period: DEMO_ROLL_FORWARD.period,
      start_date: DEMO_ROLL_FORWARD.startDate,
    }, NO_TERMS);
    for (const rating of DEMO_ROLL_FORWARD.ratings) {
      const link = need(next.scenarios.find((s) => s.name === rating.scenario), `scenario ${rating.scenario} of ${next.name}`);
      for (const type of ['inherent', 'residual'] as const) {
        const [impact, likelihood] = rating[type];
        await content.recordRating(assessor, next.id, { bra_risk_scenario_id: link.id, rating_type: type, impact_score: impact, likelihood_score: likelihood }, NO_TERMS);
      }
    }
    // The new period's review starts while it is in progress: the assessor's note and the reviewer's verdicts.
    const comments = await addReviewComments(context, next.id);
    const { data: made } = await bras.get(clientAdmin, next.id);
    context.rolledForwardBraId = next.id;
    context.log(`  ${made.name}: ${made.status}`);
    context.log(`  its review has begun: ${comments} comments, the reviewer's latest verdict recommend_approval`);
    const from = need(source.snapshot_id, 'the approval snapshot');
    const changes = await diff.diff(clientAdmin, next.id, { from, to: 'current' });
    context.log(`  diff against the FY2026 approval: ${changes.ratings.length} rating changes, ${next.open_actions.length} open action(s) to re-link`);
    const statuses = (await bras.list(clientAdmin, { page_size: 100 })).data.map((b) => b.status);
    const count = context.notes.findIndex((note) => note.startsWith(`${DEMO_ENTERPRISE.name} has `));
    if (count >= 0) context.notes[count] = braCountNote(statuses);
    context.notes.push(
      `"${made.name}" was rolled forward from "${source.name}" (${made.status}); what changed since the approval: ` +
        `GET /api/v1/bras/${next.id}/diff?from=${from}&to=current`,
    );
  },
};
