import { need, type DemoContext, type DemoStep } from '../demo-context.js';
import { DEMO_MEMBERS, assignmentLabels } from '../demo-data.js';

/**
 * Known passwords for the enterprise's people, through the identity provider's admin call (D3: the
 * service-role key sets the password of a user the service knows), so that they can sign in at once.
 */
export const passwordsStep: DemoStep = {
  title: 'Passwords',
  async run(context: DemoContext) {
    for (const person of DEMO_MEMBERS) {
      const { userId } = need(context.people.get(person.key), person.fullName);
      await context.services.provider.setPassword(`Bearer ${context.secrets.serviceRoleKey}`, userId, { password: person.password });
      context.credentials.push({
        role: person.role,
        email: person.email,
        fullName: person.fullName,
        password: person.password,
        assignments: assignmentLabels(person),
      });
    }
  },
};
