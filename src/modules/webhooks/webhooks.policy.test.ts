import { describe } from 'vitest';
import { overRoles } from '../../../test/support/principals.js';
import { canManageWebhooks } from './webhooks.policy.js';

describe('webhooks.policy (D5)', () => {
  overRoles('/webhooks (every endpoint: register, list, change, rotate, test, deliveries, retry): client admins only', { admin: true }, (who) => canManageWebhooks(who));
});
