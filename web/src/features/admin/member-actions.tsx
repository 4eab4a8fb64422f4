import { Button, Group, Text } from '@mantine/core';
import { ConfirmButton } from '../../components/confirm-button';
import { useCaller } from '../me/caller-context';
import type { EnterpriseUser } from './api';
import { joinState } from './invitation-status';

export interface MemberCalls {
  resend: (user: EnterpriseUser) => void;
  reactivate: (user: EnterpriseUser) => void;
  deactivate: (user: EnterpriseUser) => void;
}

/**
 * What the caller may do to one member (D5: super admins to anyone, client admins to assessors and
 * reviewers): resend an invitation not yet followed, deactivate an active member and reactivate a
 * deactivated one, both after confirming. Never one's own membership: the row says why instead.
 */
export function MemberActions({ user, calls }: { user: EnterpriseUser; calls: MemberCalls }) {
  const caller = useCaller();
  if (user.user_id === caller.user_id) {
    return <Text size="xs" c="dimmed" data-testid="own-membership">This is you: another administrator changes your membership.</Text>;
  }
  // Resending follows the admin policy's rule as /me lists the roles the caller may give; the rest is the member's abilities.
  const manages = caller.grantable_roles.includes(user.role);
  // Still waiting for its person (invited, failing or expired); whether a resend is allowed is the service's answer.
  const state = joinState(user.invitation, user.last_login);
  const waiting = state === 'invited' || state === 'failing' || state === 'expired';
  return (
    <Group gap="xs" wrap="nowrap">
      {manages && user.active && waiting && (
        <Button size="xs" variant="light" onClick={() => calls.resend(user)} aria-label={`Resend invitation to ${user.full_name}`}>Resend invitation</Button>
      )}
      {user.abilities.reactivate && (
        <ConfirmButton
          label="Reactivate"
          color="blue"
          confirmColor="blue.9"
          aria-label={`Reactivate ${user.full_name}`}
          title={`Reactivate ${user.full_name}?`}
          onConfirm={() => calls.reactivate(user)}
        >
          {user.full_name} can sign in again, with the role and entity access they had.
        </ConfirmButton>
      )}
      {user.abilities.deactivate && (
        <ConfirmButton
          label="Deactivate"
          aria-label={`Deactivate ${user.full_name}`}
          title={`Deactivate ${user.full_name}?`}
          onConfirm={() => calls.deactivate(user)}
        >
          {user.full_name} is signed out at once and can no longer sign in. Their history stays, and you can reactivate them later.
        </ConfirmButton>
      )}
    </Group>
  );
}
