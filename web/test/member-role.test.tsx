import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { EnterpriseUser } from '../src/features/admin/api';
import { joinState } from '../src/features/admin/invitation-status';
import { MemberRole } from '../src/features/admin/member-role';
import type { Me } from '../src/features/me/caller-context';
import { OF_ANOTHER_CLIENT_ADMIN, drawAs, invitation, member } from './members';

type Invitation = NonNullable<EnterpriseUser["invitation"]>;

function draw(role: Me['role'], user: EnterpriseUser) {
  drawAs(role, <MemberRole user={user} pending={false} onChange={() => undefined} />);
}

const choices = () => screen.queryAllByRole('option').map((option) => option.textContent);

describe("a member's role on the users screen (D5)", () => {
  it('a client admin chooses between assessor and reviewer only', () => {
    draw('admin', member({}));
    expect(choices()).toEqual(['Assessor', 'Reviewer']);
  });

  it('a super admin chooses any role', () => {
    draw('super_admin', member({ role: 'admin' }));
    expect(choices()).toEqual(['Assessor', 'Reviewer', 'Client admin']);
  });

  it("a client admin is offered no change of a client admin's role, and told why", () => {
    draw('admin', member({ role: 'admin', abilities: OF_ANOTHER_CLIENT_ADMIN }));
    expect(choices()).toEqual([]);
    expect(screen.getByText("Only a super admin changes a client admin's role.")).toBeTruthy();
  });

  it('no one is offered a change of their own role', () => {
    draw('super_admin', member({ user_id: 'me', role: 'admin' }));
    expect(choices()).toEqual([]);
    expect(screen.getByText('You cannot change your own role.')).toBeTruthy();
  });
});

describe('where a member stands with joining, in words', () => {
  const now = Date.parse('2026-11-30T00:00:00.000Z');
  it.each([
    ['invited, not yet joined', invitation, undefined, 'invited'],
    ['joined once the link was followed', { ...invitation, accepted_at: '2026-11-28T09:00:00.000Z' }, undefined, 'joined'],
    ['joined when a password was set first (the mail dropped)', { ...invitation, delivery_status: 'dropped' as const }, undefined, 'joined'],
    ['expired once the link is over', { ...invitation, expires_at: '2026-11-29T00:00:00.000Z' }, undefined, 'expired'],
    ['failing while the mail does not go out', { ...invitation, delivery_status: 'failed' as const }, undefined, 'failing'],
    ['joined without an invitation once signed in', null, '2026-11-28T09:00:00.000Z', 'joined'],
    ['not invited otherwise', null, undefined, 'not_invited'],
  ])('%s', (_what, given, lastLogin, expected) => {
    expect(joinState(given as Invitation | null, lastLogin, now)).toBe(expected);
  });
});
