import { ensureBootstrapSuperAdmin } from '../../modules/identity/bootstrap.js';
import { callerFor, type DemoContext, type DemoStep } from '../demo-context.js';
import { DEMO_SUPER_ADMIN } from '../demo-data.js';
import { findActiveSuperAdmin, findActiveUsersByEmail } from '../demo.repository.js';

/**
 * The super admin who creates the enterprise. The platform has one way to make a super admin: the
 * bootstrap (D1), which acts only while none exists. So: the demo's own super admin if it exists or can
 * be bootstrapped; otherwise the platform's existing super admin acts, and keeps its own password.
 */
export const platformAdminStep: DemoStep = {
  title: 'Platform super admin',
  async run(context: DemoContext) {
    const person = DEMO_SUPER_ADMIN;
    const [mine] = await findActiveUsersByEmail(context.db, [person.email]);
    if (mine === undefined) await ensureBootstrapSuperAdmin(context.db, { email: person.email, password: person.password });
    const [demoAdmin] = await findActiveUsersByEmail(context.db, [person.email]);
    if (demoAdmin?.is_super_admin === true) {
      await context.services.provider.setPassword(`Bearer ${context.secrets.serviceRoleKey}`, demoAdmin.id, {
        password: person.password,
      });
      const user = { userId: demoAdmin.id, email: demoAdmin.email, fullName: demoAdmin.full_name };
      context.actors.superAdmin = callerFor(user, 'super_admin', null);
      context.people.set(person.key, { userId: demoAdmin.id, person });
      context.credentials.push({ role: 'super_admin', email: demoAdmin.email, fullName: demoAdmin.full_name, password: person.password, assignments: [] });
      return;
    }
    const existing = await findActiveSuperAdmin(context.db);
    if (existing === undefined) throw new Error('No super admin could be found or created');
    context.actors.superAdmin = callerFor({ userId: existing.id, email: existing.email, fullName: existing.full_name }, 'super_admin', null);
    context.credentials.push({ role: 'super_admin', email: existing.email, fullName: existing.full_name, password: null, assignments: [] });
    context.notes.push(
      `A super admin already existed (${existing.email}), so the demo acted as it and created no other: sign in with its own password.`,
    );
  },
};
