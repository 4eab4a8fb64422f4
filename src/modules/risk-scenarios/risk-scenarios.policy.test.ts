import { describe } from 'vitest';
import { overEveryRole } from '../../../test/support/principals.js';
import { canAddRiskScenarios, canReadRiskScenarios } from './risk-scenarios.policy.js';

describe('risk-scenarios.policy (D5)', () => {
  overEveryRole(
    'GET /risk-scenarios: every member reads the whole catalogue; super admins refused',
    {
      super_admin: false,
      client_admin: true,
      assessor_of_entity_a: true,
      assessor_of_unit_a1: true,
      assessor_elsewhere: true,
      reviewer_of_entity_a: true,
      reviewer_of_unit_a1: true,
      reviewer_elsewhere: true,
    },
    (who) => canReadRiskScenarios(who),
  );

  overEveryRole(
    'POST /risk-scenarios: client admins only',
    {
      super_admin: false,
      client_admin: true,
      assessor_of_entity_a: false,
      assessor_of_unit_a1: false,
      assessor_elsewhere: false,
      reviewer_of_entity_a: false,
      reviewer_of_unit_a1: false,
      reviewer_elsewhere: false,
    },
    (who) => canAddRiskScenarios(who),
  );
});
