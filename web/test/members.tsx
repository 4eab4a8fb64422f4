import type { ReactElement } from 'react';
import type { EnterpriseUser } from '../src/features/admin/api';
import { CallerContext, type Me } from '../src/features/me/caller-context';
import { renderWithTheme } from './render';

/** A pending invitation whose link is still good (far ahead, so the fixture does not expire with the calendar). */
export const invitation: NonNullable<EnterpriseUser['invitation']> = { sent_at: '2026-11-27T09:00:00.000Z', expires_at: '2099-12-04T09:00:00.000Z', accepted_at: null, delivery_status: 'sent', delivery_attempts: 1, delivery_error: null, delivered_at: '2026-11-27T09:00:05.000Z' };

/** What the list says an administrator who may act on them may do to an active member, and to a deactivated one. */
const ACTIVE_ABILITIES = { change_role: true, deactivate: true, reactivate: false, manage_entity_roles: true };
const DEACTIVATED_ABILITIES = { change_role: false, deactivate: false, reactivate: true, manage_entity_roles: false };

/**
 * An active assessor of the enterprise, as the users list answers them, with what the test changes. The
 * abilities are those of an administrator who may act on them; a test of a refusal passes the service's answer.
 */
export function member(patch: Partial<EnterpriseUser>): EnterpriseUser {
  const abilities = patch.active === false ? DEACTIVATED_ABILITIES : ACTIVE_ABILITIES;
  return { id: 'm1', user_id: 'u1', email: 'dana@example.com', full_name: 'Dana Lee', role: 'assessor', created_at: '2026-11-27T09:00:00.000Z', active: true, deactivated_at: null, entity_assignments: [], invitation, abilities, ...patch } as EnterpriseUser;
}

/** What the service answers a client admin about another client admin: no role change, no reactivation (D5). */
export const OF_ANOTHER_CLIENT_ADMIN = { change_role: false, deactivate: true, reactivate: false, manage_entity_roles: true };

/** The roles /me lists for the caller (the service's admin policy: a client admin gives assessors and reviewers, a super admin any). */
const GRANTABLE: Partial<Record<Me['role'], Me['grantable_roles']>> = { admin: ['assessor', 'reviewer'], super_admin: ['admin', 'assessor', 'reviewer'] };

/** Draws an element as the signed-in caller of this role (user id `me`), with the grantable roles /me lists for it. */
export function drawAs(role: Me['role'], element: ReactElement) {
  const caller = { role, user_id: 'me', grantable_roles: GRANTABLE[role] ?? [] } as Me;
  renderWithTheme(<CallerContext.Provider value={caller}>{element}</CallerContext.Provider>);
}
