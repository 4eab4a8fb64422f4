import { NO_TERMS } from '../../platform/versions/change-terms.js';
import { need, type DemoContext, type DemoStep } from '../demo-context.js';
import { DEMO_EXTRA_SCENARIOS } from '../demo-data.js';

/** A few scenarios of the group's own beside the starter catalogue, added by the client admin. */
export const catalogueStep: DemoStep = {
  title: 'Risk scenario catalogue',
  async run(context: DemoContext) {
    const clientAdmin = need(context.actors.clientAdmin, 'the client admin');
    for (const scenario of DEMO_EXTRA_SCENARIOS) await context.services['risk-scenarios'].add(clientAdmin, scenario, NO_TERMS);
    context.log(`  the starter catalogue, plus ${DEMO_EXTRA_SCENARIOS.length} scenarios of the group's own`);
  },
};
