import { need, type DemoContext, type DemoStep } from '../demo-context.js';

/**
 * The risk picture the earlier steps add up to, read as the client admin would: the register of the
 * approved Retail Banking BRA (its controls linked per scenario by the BRA step), the dashboard, and where
 * the approved BRA's board pack is downloaded.
 */
export const reportingStep: DemoStep = {
  title: 'Risk register, dashboard and board pack',
  async run(context: DemoContext) {
    const clientAdmin = need(context.actors.clientAdmin, 'the client admin');
    const { register, dashboard } = context.services.reporting;
    const rows = await register.page(clientAdmin, { include_live: false, page_size: 100 });
    const figures = await dashboard.dashboard(clientAdmin, {});
    const above = rows.data.filter((row) => row.above_appetite).map((row) => row.scenario.name);
    context.log(`  register: ${rows.pagination.total} scenarios, ${above.length} above appetite`);
    const approved = need(rows.data[0], 'a register row of the approved BRA').bra;
    context.notes.push(
      `Risk register: ${rows.pagination.total} scenarios of approved BRAs, ${above.length} above appetite (${above.join(', ') || 'none'}); ` +
        `dashboard: ${figures.scenarios.within_appetite_percentage}% within appetite, ${figures.overdue_actions.total} overdue actions. ` +
        `Board pack of "${approved.name}": GET /api/v1/bras/${approved.id}/report?format=pdf (or xlsx).`,
    );
  },
};
