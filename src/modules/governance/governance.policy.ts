import { sql, type Expression, type SqlBool } from 'kysely';
import type { Principal } from '../../platform/auth/principal.js';
import {
  assignedScope,
  isAssigned,
  legalEntityScope,
  permits,
  requireMember,
  requireRole,
  seesLegalEntity,
  seesWholeEnterprise,
} from '../../platform/auth/policies.js';
import { forbidden } from '../../platform/errors/app-error.js';

/** Who may see and change risk appetites (D5). */

/** GET .../risk-appetite and its history: every member of the enterprise (which records: visibleAppetites). */
export function requireAppetiteReader(caller: Principal): asserts caller is Principal & { enterpriseId: string } {
  requireMember(caller);
}

/** POST and DELETE /governance/risk-appetite: client admins only. */
export function requireAppetiteAdmin(caller: Principal): asserts caller is Principal & { enterpriseId: string } {
  requireMember(caller);
  requireRole(caller, ['admin'], 'changing the risk appetite');
}

export const canManageRiskAppetite = (caller: Principal): boolean => permits(() => requireAppetiteAdmin(caller));

/**
 * GET .../risk-appetite and its history, as a SQL predicate: client admins see every record; assessors
 * and reviewers the enterprise default, the entity-level records of the legal entities any of their roles
 * names (that appetite applies to the BRAs they see there), and the unit-level records of units they are
 * assigned to. The same predicate serves records and history entries (both carry the scope columns).
 */
export function visibleAppetites(principal: Principal): Expression<SqlBool> {
  if (seesWholeEnterprise(principal)) return sql<SqlBool>`true`;
  return sql<SqlBool>`(legal_entity_id is null
    or (business_unit_id is null and ${legalEntityScope(principal, 'legal_entity_id')})
    or (business_unit_id is not null and ${assignedScope(principal, 'legal_entity_id', 'business_unit_id')}))`;
}

/** D10.1: a list filter naming a legal entity or unit outside the caller's assignments answers 403. */
export function requireVisibleFilter(
  principal: Principal,
  filter: { legalEntityId?: string | undefined; businessUnit?: { id: string; legalEntityId: string | null } | undefined },
): void {
  if (seesWholeEnterprise(principal)) return;
  if (filter.legalEntityId !== undefined && !seesLegalEntity(principal, filter.legalEntityId)) {
    throw forbidden('You are not assigned to this legal entity');
  }
  const unit = filter.businessUnit;
  if (unit !== undefined && (unit.legalEntityId === null || !isAssigned(principal, unit.legalEntityId, unit.id))) {
    throw forbidden('You are not assigned to this business unit');
  }
}
