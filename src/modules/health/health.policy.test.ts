import { describe } from 'vitest';
import { byRole, overEveryRole } from '../../../test/support/principals.js';
import { canReadEnterpriseHealth } from './health.policy.js';

describe('health.policy (D5)', () => {
  overEveryRole('/admin/enterprises/{id}/health: super admins only', byRole({ super_admin: true }), (who) => canReadEnterpriseHealth(who));
});
