import { permits, requireSuperAdmin } from '../../platform/auth/policies.js';
import type { Principal } from '../../platform/auth/principal.js';

/** An enterprise's health (GET /admin/enterprises/{id}/health, and the list's columns): super admins, as every /admin/enterprises call (D5). */
export function requireHealthReader(caller: Principal): void {
  requireSuperAdmin(caller);
}

export const canReadEnterpriseHealth = (caller: Principal): boolean => permits(() => requireHealthReader(caller));
