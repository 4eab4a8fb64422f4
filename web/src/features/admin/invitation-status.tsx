import { Badge, Stack, Text } from '@mantine/core';
import { WHOLE_BADGE } from '../../components/level-colors';
import { formatDay } from '../../lib/format';
import type { EnterpriseUser } from './api';

type Invitation = EnterpriseUser['invitation'];

/** Where a member stands with joining, as a person says it. */
export type JoinState = 'joined' | 'invited' | 'expired' | 'failing' | 'not_invited';

/**
 * A member's state from their latest invitation: joined once its link was followed, or once they set a
 * password another way (the service then drops the unsent mail: `dropped`); expired once the link's time
 * is over; invited until then (failing while its mail does not go out). No invitation: joined if they have
 * signed in (added before invitations, or by the enterprise's directory), else not invited.
 */
export function joinState(invitation: Invitation, lastLogin: string | undefined, now = Date.now()): JoinState {
  if (invitation === null) return lastLogin === undefined ? 'not_invited' : 'joined';
  if (invitation.accepted_at !== null || invitation.delivery_status === 'dropped') return 'joined';
  if (new Date(invitation.expires_at).getTime() <= now) return 'expired';
  return invitation.delivery_status === 'failed' ? 'failing' : 'invited';
}

const WORDS: Record<JoinState, { label: string; color: string }> = {
  joined: { label: 'Joined', color: 'green' },
  invited: { label: 'Invited, not yet joined', color: 'blue' },
  failing: { label: 'Invited, mail not delivered yet', color: 'red' },
  expired: { label: 'Invitation expired', color: 'orange' },
  not_invited: { label: 'Not invited', color: 'gray' },
};

/** The member's joining state in words, with what a person acts on: when the link ends, why the mail fails. */
export function InvitationStatus({ invitation, lastLogin }: { invitation: Invitation; lastLogin?: string }) {
  const state = joinState(invitation, lastLogin);
  const words = WORDS[state];
  return (
    <Stack gap={2} data-testid="invitation-status">
      <Badge variant="light" color={words.color} tt="none" style={WHOLE_BADGE}>{words.label}</Badge>
      {invitation !== null && state === 'joined' && invitation.accepted_at !== null && (
        <Text size="xs" c="dimmed">on {formatDay(invitation.accepted_at)}</Text>
      )}
      {invitation !== null && (state === 'invited' || state === 'failing') && (
        <Text size="xs" c="dimmed">The link works until {formatDay(invitation.expires_at)}</Text>
      )}
      {invitation !== null && state === 'expired' && <Text size="xs" c="dimmed">Send a new invitation for a new link</Text>}
      {state === 'failing' && invitation?.delivery_error && <Text size="xs" c="red.9">{invitation.delivery_error}</Text>}
    </Stack>
  );
}
