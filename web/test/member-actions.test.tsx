import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { EnterpriseUser } from '../src/features/admin/api';
import { MemberActions } from '../src/features/admin/member-actions';
import { CallerContext, type Me } from '../src/features/me/caller-context';
import { renderWithTheme } from './render';

const calls = { resend: () => undefined, reactivate: () => undefined, deactivate: () => undefined };
const invitation: NonNullable<EnterpriseUser['invitation']> = { sent_at: '2026-11-27T09:00:00.000Z', expires_at: '2026-12-04T09:00:00.000Z', accepted_at: null, delivery_status: 'sent', delivery_attempts: 1, delivery_error: null, delivered_at: '2026-11-27T09:00:05.000Z' };

function member(patch: Partial<EnterpriseUser>): EnterpriseUser {
  return { id: 'm1', user_id: 'u1', email: 'dana@example.com', full_name: 'Dana Lee', role: 'assessor', created_at: '2026-11-27T09:00:00.000Z', active: true, deactivated_at: null, entity_assignments: [], invitation, ...patch } as EnterpriseUser;
}

/** The roles /me lists for the caller (the service's admin policy: a client admin gives assessors and reviewers, a super admin any). */
const GRANTABLE: Partial<Record<Me['role'], Me['grantable_roles']>> = { admin: ['assessor', 'reviewer'], super_admin: ['admin', 'assessor', 'reviewer'] };

function draw(role: Me['role'], user: EnterpriseUser) {
  renderWithTheme(
    <CallerContext.Provider value={{ role, user_id: 'me', grantable_roles: GRANTABLE[role] ?? [] } as Me}>
      <MemberActions user={user} calls={calls} />
    </CallerContext.Provider>,
  );
}

const buttons = () => screen.queryAllByRole('button').map((button) => button.textContent);

describe('what the users screen offers for one member (D5)', () => {
  it('a client admin may resend the pending invitation of an assessor', () => {
    draw('admin', member({}));
    expect(buttons()).toEqual(['Resend invitation', 'Deactivate']);
  });

  it('a client admin is offered no resend for another client admin', () => {
    draw('admin', member({ role: 'admin' }));
    expect(buttons()).toEqual(['Deactivate']);
  });

  it('a client admin is offered no reactivation of another client admin', () => {
    draw('admin', member({ role: 'admin', active: false }));
    expect(buttons()).toEqual([]);
  });

  it('a client admin may reactivate a deactivated reviewer', () => {
    draw('admin', member({ role: 'reviewer', active: false }));
    expect(buttons()).toEqual(['Reactivate']);
  });

  it('a super admin may act on a client admin', () => {
    draw('super_admin', member({ role: 'admin', active: false }));
    expect(buttons()).toEqual(['Reactivate']);
  });

  it('no resend once the invitation was followed', () => {
    draw('admin', member({ invitation: { ...invitation, accepted_at: '2026-11-28T09:00:00.000Z' } }));
    expect(buttons()).toEqual(['Deactivate']);
  });

  it('no resend for a dropped invitation', () => {
    draw('admin', member({ invitation: { ...invitation, delivery_status: 'dropped' } }));
    expect(buttons()).toEqual(['Deactivate']);
  });

  it('no resend for a member never invited', () => {
    draw('admin', member({ invitation: null }));
    expect(buttons()).toEqual(['Deactivate']);
  });

  it('a resend for an expired invitation', () => {
    draw('admin', member({ invitation: { ...invitation, expires_at: '2020-01-01T00:00:00.000Z' } }));
    expect(buttons()).toEqual(['Resend invitation', 'Deactivate']);
  });

  it('nothing on one\'s own membership, and the reason in words', () => {
    draw('admin', member({ user_id: 'me', role: 'admin' }));
    expect(buttons()).toEqual([]);
    expect(screen.getByTestId('own-membership').textContent).toMatch(/This is you/);
  });
});
