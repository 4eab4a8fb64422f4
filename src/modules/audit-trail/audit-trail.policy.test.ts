import { describe } from 'vitest';
import { overRoles } from '../../../test/support/principals.js';
import { canReadAuditTrail } from './audit-trail.policy.js';

describe('audit-trail.policy (D5)', () => {
  overRoles('GET /audit, /audit/export, /audit/verify and the checkpoints: client admins and reviewers, the whole enterprise', { admin: true, reviewer: true }, (who) => canReadAuditTrail(who));
});
