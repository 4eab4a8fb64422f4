import { describe } from 'vitest';
import { overRoles } from '../../../test/support/principals.js';
import { canManageAlerts } from './alerts.policy.js';

describe('alerts.policy (D5)', () => {
  overRoles('/admin/alerts (list, acknowledge, resolve): super admins only', { super_admin: true }, (who) => canManageAlerts(who));
});
