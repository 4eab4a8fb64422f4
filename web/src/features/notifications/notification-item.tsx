import { Box, Group, Stack, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { Link } from 'react-router';
import { formatAgo, formatTime } from '../../lib/format';
import type { Notification } from './api';

/**
 * One notification as a link to its subject (the `link` the service answers, as its mails carry it): what happened, the reason or comment (two lines of it in the
 * bell's list, whole on the page), who, how long ago, and a dot while unread. `onOpen` runs as it is followed
 * (the list marks it read).
 */
export function NotificationItem({ notification, compact = false, onOpen }: { notification: Notification; compact?: boolean; onOpen: (notification: Notification) => void }) {
  const unread = notification.read_at === null;
  return (
    <UnstyledButton
      component={Link}
      to={notification.link}
      onClick={() => onOpen(notification)}
      data-testid="notification"
      data-unread={unread || undefined}
      display="block"
      w="100%"
      p="xs"
      style={{ borderRadius: 'var(--mantine-radius-sm)' }}
      bg={unread ? 'blue.0' : undefined}
    >
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <Box
          aria-hidden
          mt={6}
          w={8}
          h={8}
          style={{ flex: 'none', borderRadius: '50%', background: unread ? 'var(--mantine-color-blue-7)' : 'transparent' }}
        />
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Text size="sm" fw={unread ? 700 : 500}>
            {unread && <VisuallyHidden>Unread: </VisuallyHidden>}
            {notification.title}
          </Text>
          {notification.body && (
            <Text size="sm" lineClamp={compact ? 2 : undefined} data-testid="notification-body">
              {notification.body}
            </Text>
          )}
          <Text size="xs" c="dimmed">
            {notification.actor_user ? `${notification.actor_user.full_name} · ` : ''}
            <time dateTime={notification.created_at} title={formatTime(notification.created_at)}>
              {formatAgo(notification.created_at)}
            </time>
          </Text>
        </Stack>
      </Group>
    </UnstyledButton>
  );
}
