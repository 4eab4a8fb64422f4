import { permits, requireSuperAdmin } from '../../platform/auth/policies.js';
import type { Principal } from '../../platform/auth/principal.js';

/** D5: system alerts are the platform's; super admins list, acknowledge and resolve them, nobody else. */
export function requireAlertManager(caller: Principal): void {
  requireSuperAdmin(caller);
}

export const canManageAlerts = (caller: Principal): boolean => permits(() => requireAlertManager(caller));
