import { permits, requireMember, requireRole } from '../../platform/auth/policies.js';
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

/** PATCH /controls/sub-controls/{id} (test results): client admins and assessors. */
export function requireTestRecorder(caller: Principal): asserts caller is Member {
  requireMember(caller);
  requireRole(caller, ['admin', 'assessor'], 'recording test results');
}

export const canRecordTestResults = (caller: Principal): boolean => permits(() => requireTestRecorder(caller));

/** GET controls, effectiveness, heat map: every member of the enterprise. */
export const canReadControls = (caller: Principal): boolean => permits(() => requireMember(caller));
