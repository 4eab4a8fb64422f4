import { permits, requireMember, requireRole, requireSuperAdmin } from '../../platform/auth/policies.js';
import type { Principal } from '../../platform/auth/principal.js';
import type { ScimGroupRole } from '../../platform/db/tables/scim.js';
import type { SsoJitRole } from '../../platform/db/tables/sso.js';
import type { MemberRole } from '../../platform/db/tables/users.js';
import { forbidden } from '../../platform/errors/app-error.js';

/**
 * Who may manage an enterprise's integrations (service accounts and their tokens, SCIM tokens and group
 * mappings), and what provisioning may grant. Credentials are issued by the enterprise's client admins in
 * person: super admins administer the platform, not a tenant's integrations (403, as webhooks), and a
 * service account's own token cannot mint successors for itself or another account (a leaked token must
 * not outlive its revocation).
 */
export function requireIntegrationAdmin(caller: Principal): asserts caller is Principal & { enterpriseId: string } {
  requireMember(caller);
  requireRole(caller, ['admin'], 'the administration of integrations');
  if (caller.kind === 'service_account') throw forbidden('A service account cannot manage integration credentials: a person must');
}

export const canManageIntegrations = (caller: Principal): boolean => permits(() => requireIntegrationAdmin(caller));

/**
 * The roles a SCIM group may map to. Only a super admin makes a client admin (D5, D9.2), so the directory
 * (configured by a client admin) provisions assessors and reviewers; it never grants `admin`, and never a
 * super admin.
 */
export const SCIM_MAPPABLE_ROLES = ['assessor', 'reviewer'] as const satisfies readonly ScimGroupRole[];

/** Of a member's mapped groups, the role that wins: assessor over reviewer. null: no mapped group. */
export function strongestMappedRole(roles: readonly ScimGroupRole[]): ScimGroupRole | null {
  if (roles.includes('assessor')) return 'assessor';
  return roles.includes('reviewer') ? 'reviewer' : null;
}

/** The role of a provisioned member in no mapped group: a reviewer with no assignments sees nothing. */
export const UNMAPPED_ROLE: ScimGroupRole = 'reviewer';

/**
 * Whether the directory decides a member's role and entity roles: not a client admin's (a role the
 * directory cannot grant, so it cannot take it away either); their name, e-mail and activity it does manage.
 */
export const directoryDecidesRoleOf = (role: MemberRole): boolean => role !== 'admin';

/** The groups whose entity assignments a member gets: those mapped to the role they end up with. */
export const groupsOfRole = <G extends { role: ScimGroupRole | null }>(groups: readonly G[], role: ScimGroupRole): G[] =>
  groups.filter((group) => group.role === role);

/** Whether a member's role must change to the one derived (a change the audit trail records). */
export const roleDiffers = (current: MemberRole, derived: MemberRole): boolean => current !== derived;

/**
 * Who may configure the enterprise's single sign-on (its connections and e-mail domains): its client admins,
 * in person, as the other integrations. Super admins reach an enterprise's SSO through /admin only (D5): they
 * attest a domain (the verification a DNS record would give) when an enterprise cannot publish one.
 */
export const requireSsoAdmin: typeof requireIntegrationAdmin = requireIntegrationAdmin;

/** Who may mark a domain verified without its DNS record: a super admin, for any enterprise. */
export function requireDomainAttestation(caller: Principal): void {
  requireSuperAdmin(caller);
}

/**
 * The roles just-in-time membership may give a person signing in through a connection for the first time:
 * as a SCIM group, never admin (only a super admin makes a client admin, D5) and never a super admin.
 */
export const SSO_JIT_ROLES = ['assessor', 'reviewer'] as const satisfies readonly SsoJitRole[];

/**
 * Whether an enforced connection refuses this account's password: every account but a super admin's, whose
 * password stays the platform's way in when an enterprise's provider is down or misconfigured.
 */
export const ssoEnforcementApplies = (account: { is_super_admin: boolean }): boolean => !account.is_super_admin;
