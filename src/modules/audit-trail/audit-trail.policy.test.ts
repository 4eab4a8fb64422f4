import { describe } from 'vitest';
import { overEveryRole } from '../../../test/support/principals.js';
import { canReadAuditTrail } from './audit-trail.policy.js';

describe('audit-trail.policy (D5)', () => {
  overEveryRole(
    'GET /audit, /audit/export, /audit/verify and the checkpoints: client admins and reviewers, the whole enterprise',
    {
      super_admin: false,
      client_admin: true,
      assessor_of_entity_a: false,
      assessor_of_unit_a1: false,
      assessor_elsewhere: false,
      reviewer_of_entity_a: true,
      reviewer_of_unit_a1: true,
      reviewer_elsewhere: true,
    },
    (who) => canReadAuditTrail(who),
  );
});
