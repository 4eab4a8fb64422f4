import { requireMember, requireRole } from '../../platform/auth/policies.js';
import type { Principal } from '../../platform/auth/principal.js';
import { forbidden } from '../../platform/errors/app-error.js';

/**
 * Notifications are a person's own (issue 49): any member of an enterprise reads and marks hers, and only
 * hers (every statement names the caller). Super admins and integrations have none.
 */
export function requireNotificationReader(caller: Principal): asserts caller is Principal & { enterpriseId: string } {
  requireMember(caller);
}

/** How a person hears of notifications is that person's choice: a member who is a person (not an integration). */
export function requirePreferenceOwner(caller: Principal): asserts caller is Principal & { enterpriseId: string } {
  requireMember(caller);
  if (caller.kind === 'service_account') throw forbidden('A service account receives no notifications: a person chooses how they hear of theirs');
}

/** The enterprise's defaults of notification delivery: its client admins (people, not integrations). */
export function requireNotificationDefaultsAdmin(caller: Principal): asserts caller is Principal & { enterpriseId: string } {
  requirePreferenceOwner(caller);
  requireRole(caller, ['admin'], "setting the enterprise's notification defaults");
}
