import { permits, requireRole, requireSuperAdmin, isSuperAdmin } from '../../platform/auth/policies.js';
import type { Principal } from '../../platform/auth/principal.js';
import type { MemberRole } from '../../platform/db/tables/users.js';
import { forbidden, notFound } from '../../platform/errors/app-error.js';

/**
 * Who may administer enterprises, their users and entity roles (D5). Super admins may call every
 * /admin endpoint, for any enterprise; client admins administer their own enterprise's users; another
 * enterprise answers 404, never 403 (D2.2: a refusal must not confirm that it exists).
 */

/** /admin/enterprises: super admins only. */
export function requireEnterpriseManager(caller: Principal): void {
  requireSuperAdmin(caller);
}

export const canManageEnterprises = (caller: Principal): boolean => permits(() => requireEnterpriseManager(caller));

/** The enterprise an /admin/enterprises/{id}/users call acts on: any for a super admin, its own for a client admin. */
export function requireEnterpriseAdmin(caller: Principal, enterpriseId: string): void {
  if (isSuperAdmin(caller)) return;
  if (caller.enterpriseId !== enterpriseId) throw notFound('Enterprise');
  if (caller.role !== 'admin') throw forbidden('Only administrators manage enterprise users');
}

/** Client admins add assessors and reviewers; only a super admin adds a client admin (D5, D9.2). */
export function requireGrantableRole(caller: Principal, role: MemberRole): void {
  if (role === 'admin') requireRole(caller, ['super_admin'], 'adding a client admin');
}

/**
 * Acting on a member of a given role: adding them, resending their invitation, reactivating them. Super
 * admins for any role; client admins of that enterprise for assessors and reviewers only (D5, D9.3).
 */
export function requireMemberManager(caller: Principal, enterpriseId: string, role: MemberRole): void {
  requireEnterpriseAdmin(caller, enterpriseId);
  requireGrantableRole(caller, role);
}

export const canAddMember = (caller: Principal, enterpriseId: string, role: MemberRole): boolean =>
  permits(() => requireMemberManager(caller, enterpriseId, role));

/**
 * The roles the caller may give a member of their enterprise (add, re-invite, reactivate), as /me lists them
 * for the console: super admins any; client admins assessors and reviewers; others none.
 */
export function grantableRoles(caller: Principal): MemberRole[] {
  return MEMBER_ROLES.filter((role) => canAddMember(caller, caller.enterpriseId ?? '', role));
}

/** Every role a member of an enterprise may have, in the order the console offers them. */
const MEMBER_ROLES: readonly MemberRole[] = ['admin', 'assessor', 'reviewer'];

/** Resending an invitation and reactivating: the same people as adding a member of that role. */
export const canManageMember = canAddMember;

/**
 * Changing a member's role from one to another: whoever may add a member of each (D5). A super admin any
 * change; a client admin between assessor and reviewer only, so they neither make nor unmake a client admin.
 */
export function requireRoleChanger(caller: Principal, enterpriseId: string, from: MemberRole, to: MemberRole): void {
  requireMemberManager(caller, enterpriseId, from);
  requireMemberManager(caller, enterpriseId, to);
}

export const canChangeRole = (caller: Principal, enterpriseId: string, from: MemberRole, to: MemberRole): boolean =>
  permits(() => requireRoleChanger(caller, enterpriseId, from, to));

/** /admin/super-admins: super admins only (the platform's own administrators). */
export function requireSuperAdminManager(caller: Principal): void {
  requireSuperAdmin(caller);
}

export const canManageSuperAdmins = (caller: Principal): boolean => permits(() => requireSuperAdminManager(caller));

/** The enterprise whose members the caller administers: theirs, or null (any) for a super admin. */
export function administeredEnterprise(caller: Principal): string | null {
  return isSuperAdmin(caller) ? null : caller.enterpriseId;
}

/**
 * /admin/users/{id}/entity-roles: user administrators (super admins; client admins for their own users).
 * Checked before any lookup, so that a refusal says nothing about the user.
 */
export function requireUserAdministrator(caller: Principal): void {
  requireRole(caller, ['super_admin', 'admin'], 'managing entity roles');
}

export const canManageEntityRoles = (caller: Principal): boolean => permits(() => requireUserAdministrator(caller));

/** Whether the caller administers this enterprise's members at all (the check every member call starts with). */
export const canAdministerEnterprise = (caller: Principal, enterpriseId: string): boolean => permits(() => requireEnterpriseAdmin(caller, enterpriseId));

/**
 * What the caller may do to a listed member now (the `abilities` of the member list and of a role change's
 * answer), each the check the users and entity-roles services make: a role change to some other role, a
 * deactivation and entity access while the member is active and not the caller (one never changes one's own
 * role nor deactivates oneself), a reactivation while they are not.
 */
export function memberAbilities(caller: Principal, enterpriseId: string, member: { user_id: string; role: MemberRole; active: boolean }) {
  const other = member.user_id !== caller.userId;
  const actOn = member.active && other && canAdministerEnterprise(caller, enterpriseId);
  const otherRoles = MEMBER_ROLES.filter((role) => role !== member.role);
  return {
    change_role: actOn && otherRoles.some((to) => canChangeRole(caller, enterpriseId, member.role, to)),
    deactivate: actOn,
    reactivate: !member.active && canManageMember(caller, enterpriseId, member.role),
    manage_entity_roles: member.active && canAdministerEnterprise(caller, enterpriseId) && canManageEntityRoles(caller),
  };
}

/** What the caller may do to a listed enterprise (its `abilities`): change its status or its tier (PATCH), super admins. */
export function enterpriseAbilities(caller: Principal) {
  const manager = canManageEnterprises(caller);
  return { update: manager, change_tier: manager };
}
