import { describe } from 'vitest';
import { byRole, overEveryRole } from '../../../test/support/principals.js';
import { canManageAlerts } from './alerts.policy.js';

describe('alerts.policy (D5)', () => {
  overEveryRole(
    '/admin/alerts (list, acknowledge, resolve): super admins only',
    byRole({ super_admin: true }),
    (who) => canManageAlerts(who),
  );
});
