import { Badge, Stack, Text } from '@mantine/core';
import { WHOLE_BADGE } from '../../components/level-colors';
import { formatDay } from '../../lib/format';
import type { EnterpriseUser } from './api';

const DELIVERY: Record<string, { label: string; color: string }> = {
  queued: { label: 'Mail queued', color: 'gray' },
  sent: { label: 'Mail sent', color: 'blue' },
  failed: { label: 'Mail failing', color: 'red' },
  dropped: { label: 'Mail not sent', color: 'gray' },
};

/**
 * The latest invitation of a member as the service reports it: accepted, or its mail's state, the link's
 * expiry and the service's reason when the mail failed or was not sent.
 */
export function InvitationStatus({ invitation }: { invitation: EnterpriseUser['invitation'] }) {
  if (invitation === null) return <Text size="sm" c="dimmed">–</Text>;
  if (invitation.accepted_at !== null) return <Text size="sm">Accepted {formatDay(invitation.accepted_at)}</Text>;
  const delivery = DELIVERY[invitation.delivery_status] ?? { label: invitation.delivery_status, color: 'gray' };
  const dropped = invitation.delivery_status === 'dropped';
  return (
    <Stack gap={2} data-testid="invitation-status">
      <Badge variant="light" color={delivery.color} tt="none" style={WHOLE_BADGE}>{delivery.label}</Badge>
      {!dropped && <Text size="xs" c="dimmed">Link until {formatDay(invitation.expires_at)}</Text>}
      {invitation.delivery_error && <Text size="xs" c={dropped ? 'dimmed' : 'red.9'}>{invitation.delivery_error}</Text>}
    </Stack>
  );
}
