import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { EnterpriseUser } from '../src/features/admin/api';
import { MemberActions } from '../src/features/admin/member-actions';
import type { Me } from '../src/features/me/caller-context';
import { OF_ANOTHER_CLIENT_ADMIN, drawAs, invitation, member } from './members';

const calls = { resend: () => undefined, reactivate: () => undefined, deactivate: () => undefined };
function draw(role: Me['role'], user: EnterpriseUser) {
  drawAs(role, <MemberActions user={user} calls={calls} />);
}

const buttons = () => screen.queryAllByRole('button').map((button) => button.textContent);

describe('what the users screen offers for one member (D5)', () => {
  it('a client admin may resend the pending invitation of an assessor', () => {
    draw('admin', member({}));
    expect(buttons()).toEqual(['Resend invitation', 'Deactivate']);
  });

  it('a client admin is offered no resend for another client admin', () => {
    draw('admin', member({ role: 'admin', abilities: OF_ANOTHER_CLIENT_ADMIN }));
    expect(buttons()).toEqual(['Deactivate']);
  });

  it('a client admin is offered no reactivation of another client admin (the list says so)', () => {
    draw('admin', member({ role: 'admin', active: false, abilities: { ...OF_ANOTHER_CLIENT_ADMIN, deactivate: false } }));
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
    draw('admin', member({ user_id: 'me', role: 'admin', abilities: { ...OF_ANOTHER_CLIENT_ADMIN, deactivate: false } }));
    expect(buttons()).toEqual([]);
    expect(screen.getByTestId('own-membership').textContent).toMatch(/This is you/);
  });

  it('no deactivation where the list says the caller may not deactivate', () => {
    draw('super_admin', member({ abilities: { change_role: true, deactivate: false, reactivate: false, manage_entity_roles: true } }));
    expect(buttons()).toEqual(['Resend invitation']);
  });
});
