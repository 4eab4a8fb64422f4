import { permits, requireMember, requireRole } from '../../platform/auth/policies.js';
import type { Principal } from '../../platform/auth/principal.js';

/**
 * Webhooks send the enterprise's risk data to its other systems: the client admin of the enterprise
 * registers, changes and watches them. Super admins administer the platform, not a tenant's integrations
 * (403, as on other domain routes); assessors and reviewers 403.
 */
export function requireWebhookAdmin(caller: Principal): asserts caller is Principal & { enterpriseId: string } {
  requireMember(caller);
  requireRole(caller, ['admin'], 'the administration of webhooks');
}

export const canManageWebhooks = (caller: Principal): boolean => permits(() => requireWebhookAdmin(caller));
