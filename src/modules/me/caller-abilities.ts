import type { Principal } from '../../platform/auth/principal.js';
import { canChangeActions } from '../actions/actions.policy.js';
import { canManageEnterprises, canManageEntityRoles } from '../admin/admin.policy.js';
import { canReadAuditTrail } from '../audit-trail/audit-trail.policy.js';
import { canAcceptRisks, canApproveBra, canCreateBras } from '../bras/bras.policy.js';
import { canManageControlLibrary, canRecordTestResults } from '../controls/controls.policy.js';
import { canManageRiskAppetite } from '../governance/governance.policy.js';
import { canManageIntegrations } from '../identity/integrations.policy.js';
import { canManageLegalEntities } from '../legal-entities/legal-entities.policy.js';
import { canReadRegister } from '../reporting/reporting.policy.js';
import { canAddRiskScenarios } from '../risk-scenarios/risk-scenarios.policy.js';

/**
 * What the caller may do across the enterprise (the `abilities` of /me), each member the predicate of the
 * module policy the service enforces: the console draws its navigation and its buttons from it and holds no
 * role rule of its own. What depends on a record (this BRA, this member) is in that record's own abilities.
 */
export function callerAbilities(caller: Principal) {
  return {
    see_risk_data: canReadRegister(caller),
    create_bras: canCreateBras(caller),
    approve_bras: canApproveBra(caller),
    accept_risks: canAcceptRisks(caller),
    manage_organisation: canManageLegalEntities(caller),
    manage_risk_scenarios: canAddRiskScenarios(caller),
    manage_control_library: canManageControlLibrary(caller),
    record_control_tests: canRecordTestResults(caller),
    change_actions: canChangeActions(caller),
    set_appetite: canManageRiskAppetite(caller),
    read_audit_trail: canReadAuditTrail(caller),
    administer_members: canManageEntityRoles(caller),
    administer_platform: canManageEnterprises(caller),
    manage_integrations: canManageIntegrations(caller),
  };
}

