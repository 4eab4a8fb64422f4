import { describe } from 'vitest';
import { overEveryRole } from '../../../test/support/principals.js';
import { canManageAlerts } from './alerts.policy.js';

describe('alerts.policy (D5)', () => {
  overEveryRole(
    '/admin/alerts (list, acknowledge, resolve): super admins only',
    {
      super_admin: true,
      client_admin: false,
      assessor_of_entity_a: false,
      assessor_of_unit_a1: false,
      assessor_elsewhere: false,
      reviewer_of_entity_a: false,
      reviewer_of_unit_a1: false,
      reviewer_elsewhere: false,
    },
    (who) => canManageAlerts(who),
  );
});
