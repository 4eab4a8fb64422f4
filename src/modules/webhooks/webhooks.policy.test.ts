import { describe } from 'vitest';
import { byRole, overEveryRole } from '../../../test/support/principals.js';
import { canManageWebhooks } from './webhooks.policy.js';

describe('webhooks.policy (D5)', () => {
  overEveryRole(
    '/webhooks (every endpoint: register, list, change, rotate, test, deliveries, retry): client admins only',
    byRole({ admin: true }),
    (who) => canManageWebhooks(who),
  );
});
