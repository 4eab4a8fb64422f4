import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import { assignedScope, permits, requireAssigned, requireMember, requireRole, seesLegalEntity } from '../../platform/auth/policies.js';
import { forbidden } from '../../platform/errors/app-error.js';
import type { Principal } from '../../platform/auth/principal.js';

/**
 * Who may do what with the control library (D5): every member reads it (controls, effectiveness, heat
 * map, the latter scoped to their assignments when filtered by entity); client admins shape it; client
 * admins and assessors record test results.
 */

type Member = Principal & { enterpriseId: string };

/** POST key controls and sub-controls, PATCH key controls, archive either: client admins. */
export function requireControlLibraryAdmin(caller: Principal): asserts caller is Member {
  requireMember(caller);
  requireRole(caller, ['admin'], 'changes to the control library');
}

export const canManageControlLibrary = (caller: Principal): boolean => permits(() => requireControlLibraryAdmin(caller));

/** Who records test results: client admins and assessors, of every sub-control (the library is the enterprise's). */
const TEST_RECORDERS = ['admin', 'assessor'] as const;

/** PATCH /controls/sub-controls/{id} (test results and schedule), POST …/tests: client admins and assessors. */
export function requireTestRecorder(caller: Principal): asserts caller is Member {
  requireMember(caller);
  requireRole(caller, TEST_RECORDERS, 'recording test results');
}

/** The same rule as SQL over an enterprise membership `m`: who is reminded of a sub-control's next test (issue 49). */
export function testRecorderSql(): RawBuilder<SqlBool> {
  return sql<SqlBool>`(m.role in (${sql.join(TEST_RECORDERS)}))`;
}

export const canRecordTestResults = (caller: Principal): boolean => permits(() => requireTestRecorder(caller));

/** GET controls, effectiveness, heat map, the library file: every member of the enterprise. */
export function requireControlsReader(caller: Principal): asserts caller is Member {
  requireMember(caller);
}

export const canReadControls = (caller: Principal): boolean => permits(() => requireControlsReader(caller));

/**
 * A count, heat map or list narrowed to some BRAs (D7.1, D10.1): an assessor or reviewer must be assigned to
 * the BRA or unit named, or to some part of the legal entity named (403 otherwise).
 */
export function requireControlScopeReader(
  caller: Principal,
  scope: { legalEntityId: string; businessUnitId?: string | undefined; bra?: { legal_entity_id: string; business_unit_id: string | null } | undefined },
): void {
  if (scope.bra !== undefined) requireAssigned(caller, scope.bra.legal_entity_id, scope.bra.business_unit_id);
  else if (scope.businessUnitId !== undefined) requireAssigned(caller, scope.legalEntityId, scope.businessUnitId);
  else if (!seesLegalEntity(caller, scope.legalEntityId)) throw forbidden('You are not assigned to this legal entity');
}

/** The BRAs a narrowed count may include, as a SQL predicate over `b` (bras): those the caller is assigned to. */
export function controlBraScope(caller: Principal): Expression<SqlBool> {
  return assignedScope(caller, 'b.legal_entity_id', 'b.business_unit_id');
}

/**
 * What the caller may do to a sub-control now (the `abilities` of its read): record test results (PATCH and
 * POST …/tests) or archive it, while it is not archived.
 */
export function subControlAbilities(caller: Principal, subControl: { archived: boolean }) {
  const live = !subControl.archived;
  return { record_test: live && canRecordTestResults(caller), archive: live && canManageControlLibrary(caller) };
}
