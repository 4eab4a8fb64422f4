import { describe } from 'vitest';
import { byRole, overEveryRole } from '../../../test/support/principals.js';
import { canAddRiskScenarios, canReadRiskScenarios } from './risk-scenarios.policy.js';

describe('risk-scenarios.policy (D5)', () => {
  overEveryRole(
    'GET /risk-scenarios: every member reads the whole catalogue; super admins refused',
    byRole({ admin: true, assessor: true, reviewer: true }),
    (who) => canReadRiskScenarios(who),
  );

  overEveryRole(
    'POST /risk-scenarios: client admins only',
    byRole({ admin: true }),
    (who) => canAddRiskScenarios(who),
  );
});
