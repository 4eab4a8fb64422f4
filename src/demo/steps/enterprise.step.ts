import { NO_TERMS } from '../../platform/versions/change-terms.js';
import { need, type DemoContext, type DemoStep } from '../demo-context.js';
import { DEMO_ENTERPRISE } from '../demo-data.js';

/** The enterprise (with its default appetite and starter scenario catalogue), then its subscription. */
export const enterpriseStep: DemoStep = {
  title: 'Enterprise',
  async run(context: DemoContext) {
    const superAdmin = need(context.actors.superAdmin, 'the super admin');
    const { enterprises } = context.services.admin;
    const created = await enterprises.create(superAdmin, {
      name: DEMO_ENTERPRISE.name,
      country: DEMO_ENTERPRISE.country,
      registration_number: DEMO_ENTERPRISE.registration_number,
    }, NO_TERMS);
    await enterprises.update(superAdmin, created.id, { subscription_tier: DEMO_ENTERPRISE.subscription_tier }, NO_TERMS);
    context.enterpriseId = created.id;
    context.log(`  ${created.name} (${created.id})`);
  },
};
