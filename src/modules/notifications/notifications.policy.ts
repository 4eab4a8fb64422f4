import { requireMember } from '../../platform/auth/policies.js';
import type { Principal } from '../../platform/auth/principal.js';

/**
 * Notifications are a person's own (issue 49): any member of an enterprise reads and marks hers, and only
 * hers (every statement names the caller). Super admins and integrations have none.
 */
export function requireNotificationReader(caller: Principal): asserts caller is Principal & { enterpriseId: string } {
  requireMember(caller);
}
