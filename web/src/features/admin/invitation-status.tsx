import { Badge, Stack, Text } from '@mantine/core';
import { formatTime } from '../../lib/format';
import type { EnterpriseUser } from './api';

const DELIVERY: Record<string, { label: string; color: string }> = {
  queued: { label: 'Mail queued', color: 'gray' },
  sent: { label: 'Mail sent', color: 'blue' },
  failed: { label: 'Mail failing', color: 'red' },
  dropped: { label: 'Mail not sent', color: 'gray' },
};

/** The latest invitation of a member as the service reports it: accepted, or its mail's state and expiry. */
export function InvitationStatus({ invitation }: { invitation: EnterpriseUser['invitation'] }) {
  if (invitation === null) return <Text size="sm" c="dimmed">–</Text>;
  if (invitation.accepted_at !== null) return <Text size="sm">Accepted {formatTime(invitation.accepted_at)}</Text>;
  const delivery = DELIVERY[invitation.delivery_status] ?? { label: invitation.delivery_status, color: 'gray' };
  return (
    <Stack gap={2} data-testid="invitation-status">
      <Badge variant="light" color={delivery.color}>{delivery.label}</Badge>
      <Text size="xs" c="dimmed">Sent {formatTime(invitation.sent_at)}, link until {formatTime(invitation.expires_at)}</Text>
      {invitation.delivery_error && <Text size="xs" c="red.9">{invitation.delivery_error}</Text>}
    </Stack>
  );
}
