import type { Caller } from '../../platform/auth/principal.js';
import { requireMember, requireRole } from '../../platform/auth/policies.js';

/**
 * D5: the audit trail is for client admins and reviewers (the whole enterprise); assessors and super
 * admins (who administer the platform, not an enterprise) are refused.
 */
export function requireAuditor(caller: Caller): asserts caller is Caller & { enterpriseId: string } {
  requireMember(caller);
  requireRole(caller, ['admin', 'reviewer'], 'reading the audit trail');
}
