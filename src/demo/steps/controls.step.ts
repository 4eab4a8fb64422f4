import { NO_TERMS } from '../../platform/versions/change-terms.js';
import { callerFor, need, type DemoContext, type DemoStep, clientAdminOf } from '../demo-context.js';
import { DEMO_CONTROL_LIBRARY } from '../demo-controls.js';

/**
 * The control library: the client admin creates key controls and sub-controls (D5), then the assessors
 * record the test results they have (D5: assessors record test results), so that some sub-controls are
 * tested, some partly tested and some untested.
 */
export const controlsStep: DemoStep = {
  title: 'Control library with test results',
  async run(context: DemoContext) {
    const { clientAdmin, enterpriseId } = clientAdminOf(context);
    const { keyControls, subControls } = context.services.controls;
    const testerOf = (key: string) => {
      const { userId, person } = need(context.people.get(key), `the demo person ${key}`);
      return callerFor({ userId, email: person.email, fullName: person.fullName }, 'assessor', enterpriseId);
    };
    const tally = { tested: 0, partly: 0, untested: 0 };
    for (const keyControl of DEMO_CONTROL_LIBRARY) {
      const created = await keyControls.create(clientAdmin, { name: keyControl.name, description: keyControl.description }, NO_TERMS);
      for (const subControl of keyControl.subControls) {
        const sub = await subControls.create(clientAdmin, {
          key_control_id: created.id,
          name: subControl.name,
          description: subControl.description,
        }, NO_TERMS);
        if (subControl.results === undefined) {
          tally.untested += 1;
          continue;
        }
        const { tester, ...results } = subControl.results;
        const caller = testerOf(tester);
        await subControls.recordTestResults(caller, sub.id, { ...results, tested_by: caller.fullName }, NO_TERMS);
        if (results.tod !== undefined && results.toe !== undefined) tally.tested += 1;
        else tally.partly += 1;
      }
    }
    const line = `${DEMO_CONTROL_LIBRARY.length} key controls; sub-controls: ${tally.tested} tested, ${tally.partly} partly tested, ${tally.untested} untested`;
    context.log(`  ${line}`);
    context.notes.push(`Control library: ${line} (GET /api/v1/controls/effectiveness and /api/v1/controls/heat-map).`);
  },
};
