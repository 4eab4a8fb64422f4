import type { Expression, SqlBool } from 'kysely';
import { assignedScope, permits, requireAssigned, requireMember, seesLegalEntity } from '../../platform/auth/policies.js';
import type { Principal } from '../../platform/auth/principal.js';
import { forbidden } from '../../platform/errors/app-error.js';
import { actionScope } from '../actions/actions.policy.js';
import { requireBraReader, type BraPlace } from '../bras/bras.policy.js';

/**
 * Who sees what of the risk register, the dashboard and the BRA report (D5): the same as reading BRAs.
 * Client admins see the whole enterprise, assessors and reviewers their assigned entities and units; super
 * admins no enterprise risk data. The register and the dashboard are lists: their scope is a SQL predicate.
 */

/** The register and the dashboard: any enterprise member; rows are narrowed by registerScope. */
export function requireRegisterReader(caller: Principal): asserts caller is Principal & { enterpriseId: string } {
  requireMember(caller);
}

export const canReadRegister = (caller: Principal): boolean => permits(() => requireRegisterReader(caller));

/** The BRAs whose scenarios a caller's register and dashboard hold, as a predicate over `b` (bras). */
export function registerScope(caller: Principal): Expression<SqlBool> {
  return assignedScope(caller, 'b.legal_entity_id', 'b.business_unit_id');
}

/** The dashboard's overdue actions: the caller's list of actions (D5), over `a` and its BRA `b`. */
export const dashboardActionScope = actionScope;

/** A filter naming a legal entity: assessors and reviewers only one they are assigned to (D10.1). */
export function requireLegalEntityFilter(caller: Principal, legalEntityId: string): void {
  if (!seesLegalEntity(caller, legalEntityId)) throw forbidden('You are not assigned to this legal entity');
}

/** A filter naming a business unit: assessors and reviewers only one they are assigned to. */
export function requireBusinessUnitFilter(caller: Principal, unit: { legal_entity_id: string; id: string }): void {
  requireAssigned(caller, unit.legal_entity_id, unit.id);
}

/** A BRA's report: whoever may read the BRA. */
export function requireReportReader(caller: Principal, bra: BraPlace): void {
  requireBraReader(caller, bra);
}

export const canReadReport = (caller: Principal, bra: BraPlace): boolean => permits(() => requireReportReader(caller, bra));
