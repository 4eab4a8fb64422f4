import { describe } from 'vitest';
import { overRoles } from '../../../test/support/principals.js';
import { canAddRiskScenarios, canReadRiskScenarios } from './risk-scenarios.policy.js';

describe('risk-scenarios.policy (D5)', () => {
  overRoles('GET /risk-scenarios: every member reads the whole catalogue; super admins refused', { admin: true, assessor: true, reviewer: true }, (who) => canReadRiskScenarios(who));

  overRoles('POST /risk-scenarios: client admins only', { admin: true }, (who) => canAddRiskScenarios(who));
});
