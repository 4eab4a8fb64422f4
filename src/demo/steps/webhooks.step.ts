import { NO_TERMS } from '../../platform/versions/change-terms.js';
import { need, type DemoContext, type DemoStep } from '../demo-context.js';

/** Where the demo's endpoint points: a reserved name, so nothing leaves the machine until it is changed. */
const DEMO_WEBHOOK_URL = 'https://hooks.harbourview.example/risk-events';

/**
 * A webhook endpoint of the client admin, for the events a risk team wants in its ticketing tool. It is
 * registered, then paused: its URL is an example, and an enabled endpoint nobody listens at would retry for
 * 24 hours and then raise an alert. The note says how to point it somewhere real.
 */
export const webhooksStep: DemoStep = {
  title: 'A webhook endpoint',
  async run(context: DemoContext) {
    const clientAdmin = need(context.actors.clientAdmin, 'the client admin');
    const webhooks = context.services.webhooks;
    const endpoint = await webhooks.create(clientAdmin, {
      url: DEMO_WEBHOOK_URL,
      event_types: ['bra.approved', 'risk.above_appetite', 'mitigation_action.overdue'],
      description: 'Risk team ticketing (example: paused until it points at a real receiver)',
    }, NO_TERMS);
    await webhooks.update(clientAdmin, endpoint.id, { enabled: false }, NO_TERMS);
    context.log(`  ${endpoint.url}: ${endpoint.event_types.join(', ')} (paused)`);
    context.notes.push(
      [
        `Webhooks: the client admin has a paused endpoint (${endpoint.id}) for bra.approved, risk.above_appetite and`,
        'mitigation_action.overdue. Point it at your receiver and enable it with PATCH /api/v1/webhooks/{id}',
        '{ "url": "https://…", "enabled": true }, rotate its secret (POST …/rotate-secret: the demo does not keep it)',
        'and send POST …/test; docs/guide.md shows how to verify deliveries.',
      ].join('\n'),
    );
  },
};
