import { NO_TERMS } from '../../platform/versions/change-terms.js';
import { callerFor, need, type DemoContext, type DemoStep } from '../demo-context.js';
import { DEMO_MEMBERS } from '../demo-data.js';

/** The enterprise's client admin, added by the super admin (only a super admin may add an admin, D5). */
export const clientAdminStep: DemoStep = {
  title: 'Client admin',
  async run(context: DemoContext) {
    const superAdmin = need(context.actors.superAdmin, 'the super admin');
    const enterpriseId = need(context.enterpriseId, 'the enterprise');
    const person = need(
      DEMO_MEMBERS.find((member) => member.role === 'admin'),
      'a client admin in the demo data',
    );
    const user = await context.services.admin.users.create(superAdmin, enterpriseId, {
      email: person.email,
      full_name: person.fullName,
      role: 'admin',
    }, NO_TERMS);
    context.people.set(person.key, { userId: user.user_id, person });
    context.actors.clientAdmin = callerFor({ userId: user.user_id, email: user.email, fullName: user.full_name }, 'admin', enterpriseId);
  },
};
