import { assignedScope, legalEntityScope, permits, requireMember, requireRole } from '../../platform/auth/policies.js';
import type { Principal } from '../../platform/auth/principal.js';
import { forbidden } from '../../platform/errors/app-error.js';
import type { ListScope } from './legal-entities.repository.js';

/** Who may see and create legal entities and business units (D5). */

/**
 * POST /admin/legal-entities and its business units: client admins. D5 lets super admins call /admin/*,
 * but this body names no enterprise, so a super admin has none to create the entity in: refused with 403
 * (as are assessors and reviewers).
 */
export function requireLegalEntityAdmin(caller: Principal): asserts caller is Principal & { enterpriseId: string } {
  if (caller.enterpriseId === null) {
    throw forbidden('Super admins belong to no enterprise: legal entities are created by a client admin');
  }
  requireRole(caller, ['admin'], 'the administration of legal entities');
}

export const canManageLegalEntities = (caller: Principal): boolean => permits(() => requireLegalEntityAdmin(caller));

/** GET /legal-entities: every member of an enterprise (which entities and units: legalEntityListScope). */
export function requireLegalEntityReader(caller: Principal): asserts caller is Principal & { enterpriseId: string } {
  requireMember(caller);
}

/**
 * GET /legal-entities: client admins see every entity and unit; assessors and reviewers the entities any
 * of their entity roles names and, within them, the units D5 calls "assigned" (all of them with a
 * whole-entity role, otherwise only the units their roles name), so that the list offers exactly the
 * units they may create or read BRAs in.
 */
export function legalEntityListScope(caller: Principal): ListScope {
  return { entity: legalEntityScope(caller, 'le.id'), unit: assignedScope(caller, 'bu.legal_entity_id', 'bu.id') };
}
