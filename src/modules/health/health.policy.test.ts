import { describe } from 'vitest';
import { overRoles } from '../../../test/support/principals.js';
import { canReadEnterpriseHealth } from './health.policy.js';

describe('health.policy (D5)', () => {
  overRoles('/admin/enterprises/{id}/health: super admins only', { super_admin: true }, (who) => canReadEnterpriseHealth(who));
});
