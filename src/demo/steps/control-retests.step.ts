import { NO_TERMS } from '../../platform/versions/change-terms.js';
import { callerFor, need, type DemoContext, type DemoStep, clientAdminOf } from '../demo-context.js';

/**
 * A control-testing cycle: a sub-control tested last quarter is retested with a complete test, so its
 * history holds two records and its detail shows the previous result next to the current one.
 */
const RETEST = {
  subControl: 'Daily reconciliation of payment files',
  tester: 'assessor_bank',
  test: {
    tod: 'B',
    toe: '2',
    testing_date: '2026-11-16',
    evidence_notes: '20 days sampled in October: every reconciliation signed off the same day.',
    toe_justification: 'Sign-off now enforced by the close checklist; no exceptions in the sample.',
  },
} as const;

export const controlRetestsStep: DemoStep = {
  title: 'A retest with its history',
  async run(context: DemoContext) {
    const { clientAdmin, enterpriseId } = clientAdminOf(context);
    const { subControls, tests } = context.services.controls;
    const sub = (await subControls.list(clientAdmin, {})).data.find((candidate) => candidate.name === RETEST.subControl);
    const target = need(sub, `the demo sub-control ${RETEST.subControl}`);
    const { userId, person } = need(context.people.get(RETEST.tester), `the demo person ${RETEST.tester}`);
    const tester = callerFor({ userId, email: person.email, fullName: person.fullName }, 'assessor', enterpriseId);
    await tests.record(tester, target.id, { ...RETEST.test, tested_by: tester.fullName }, NO_TERMS);
    const line = `"${RETEST.subControl}" retested: ${target.tod}${target.toe} (${target.total_effectiveness}) before, ${RETEST.test.tod}${RETEST.test.toe} now`;
    context.log(`  ${line}`);
    context.notes.push(
      `Test history: ${line} (GET /api/v1/controls/sub-controls/${target.id}/tests; its detail shows the previous result). ` +
        'Drill down from a heat-map cell with the filter it carries (GET /api/v1/controls/sub-controls?tod=B&toe=2); ' +
        'the library as a spreadsheet: GET /api/v1/controls/export?format=xlsx, and back with POST /api/v1/controls/import.',
    );
  },
};
