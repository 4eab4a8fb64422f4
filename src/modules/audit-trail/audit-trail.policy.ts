import type { Principal } from '../../platform/auth/principal.js';
import { permits, requireMember, requireRole } from '../../platform/auth/policies.js';

/**
 * D5: the audit trail (search, export, verify, checkpoints) is for client admins and reviewers (the whole
 * enterprise); assessors and super admins (who administer the platform, not an enterprise) are refused.
 */
export function requireAuditor(caller: Principal): asserts caller is Principal & { enterpriseId: string } {
  requireMember(caller);
  requireRole(caller, ['admin', 'reviewer'], 'reading the audit trail');
}

export const canReadAuditTrail = (caller: Principal): boolean => permits(() => requireAuditor(caller));
