import type { ReactElement } from 'react';
import type { EnterpriseUser } from '../src/features/admin/api';
import { CallerContext, type Me } from '../src/features/me/caller-context';
import { renderWithTheme } from './render';

/** A pending invitation whose link is still good (far ahead, so the fixture does not expire with the calendar). */
export const invitation: NonNullable<EnterpriseUser['invitation']> = { sent_at: '2026-11-27T09:00:00.000Z', expires_at: '2099-12-04T09:00:00.000Z', accepted_at: null, delivery_status: 'sent', delivery_attempts: 1, delivery_error: null, delivered_at: '2026-11-27T09:00:05.000Z' };

/** An active assessor of the enterprise, as the users list answers them, with what the test changes. */
export function member(patch: Partial<EnterpriseUser>): EnterpriseUser {
  return { id: 'm1', user_id: 'u1', email: 'dana@example.com', full_name: 'Dana Lee', role: 'assessor', created_at: '2026-11-27T09:00:00.000Z', active: true, deactivated_at: null, entity_assignments: [], invitation, ...patch } as EnterpriseUser;
}

/** The roles /me lists for the caller (the service's admin policy: a client admin gives assessors and reviewers, a super admin any). */
const GRANTABLE: Partial<Record<Me['role'], Me['grantable_roles']>> = { admin: ['assessor', 'reviewer'], super_admin: ['admin', 'assessor', 'reviewer'] };

/** Draws an element as the signed-in caller of this role (user id `me`), with the grantable roles /me lists for it. */
export function drawAs(role: Me['role'], element: ReactElement) {
  const caller = { role, user_id: 'me', grantable_roles: GRANTABLE[role] ?? [] } as Me;
  renderWithTheme(<CallerContext.Provider value={caller}>{element}</CallerContext.Provider>);
}
