import { Button, Group } from '@mantine/core';
import { useCaller } from '../me/caller-context';
import type { EnterpriseUser } from './api';

export interface MemberCalls {
  resend: (user: EnterpriseUser) => void;
  reactivate: (user: EnterpriseUser) => void;
  deactivate: (user: EnterpriseUser) => void;
}

/**
 * What the caller may do to one member (D5: super admins to anyone, client admins to assessors and
 * reviewers): resend a pending invitation, reactivate a deactivated member, deactivate an active one.
 */
export function MemberActions({ user, calls }: { user: EnterpriseUser; calls: MemberCalls }) {
  const caller = useCaller();
  // The admin policy's rule, as /me lists the roles the caller may give (a member's own abilities when the list carries them).
  const manages = caller.grantable_roles.includes(user.role);
  // The latest invitation still waits for its user: not followed, and not dropped (the service drops the
  // mail of a user who set a password first). Whether a resend is allowed is still the service's answer.
  const pending = user.invitation !== null && user.invitation.accepted_at === null && user.invitation.delivery_status !== 'dropped';
  return (
    <Group gap="xs" wrap="nowrap">
      {manages && user.active && pending && (
        <Button size="xs" variant="light" onClick={() => calls.resend(user)} aria-label={`Resend invitation to ${user.full_name}`}>Resend invitation</Button>
      )}
      {manages && !user.active && (
        <Button size="xs" variant="light" onClick={() => calls.reactivate(user)} aria-label={`Reactivate ${user.full_name}`}>Reactivate</Button>
      )}
      {user.active && (
        <Button size="xs" variant="subtle" color="red" onClick={() => calls.deactivate(user)} aria-label={`Deactivate ${user.full_name}`}>Deactivate</Button>
      )}
    </Group>
  );
}
