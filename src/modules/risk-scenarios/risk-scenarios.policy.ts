import { permits, requireMember, requireRole } from '../../platform/auth/policies.js';
import type { Principal } from '../../platform/auth/principal.js';

/** D5: the risk scenario catalogue is enterprise-wide reference data every member reads; client admins add to it. */

export function requireCatalogueReader(caller: Principal): asserts caller is Principal & { enterpriseId: string } {
  requireMember(caller);
}

export const canReadRiskScenarios = (caller: Principal): boolean => permits(() => requireCatalogueReader(caller));

/** POST /risk-scenarios: client admins only. */
export function requireCatalogueEditor(caller: Principal): asserts caller is Principal & { enterpriseId: string } {
  requireMember(caller);
  requireRole(caller, ['admin'], 'changes to the risk scenario catalogue');
}

export const canAddRiskScenarios = (caller: Principal): boolean => permits(() => requireCatalogueEditor(caller));
