import { need, type DemoContext, type DemoStep } from '../demo-context.js';

/**
 * The client admin loads the starter control library beside the demo's own controls: its sub-controls are
 * untested, so they show in the effectiveness summary as not_assessed until the team tests them.
 */
export const starterLibraryStep: DemoStep = {
  title: 'Starter control library',
  async run(context: DemoContext) {
    const clientAdmin = need(context.actors.clientAdmin, 'the client admin');
    const loaded = await context.services.controls.starterLibrary.load(clientAdmin);
    const line = `${loaded.key_controls} key controls, ${loaded.sub_controls} untested sub-controls, ${loaded.risk_scenario_links} links to catalogue scenarios`;
    context.log(`  ${line}`);
    context.notes.push(`Starter control library: ${line} (POST /api/v1/controls/starter-library, once per enterprise).`);
  },
};
