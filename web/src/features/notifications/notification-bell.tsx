import { ActionIcon, Anchor, Button, Divider, Group, Indicator, Popover, ScrollArea, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { ErrorDisplay } from '../../components/error-display';
import { Empty, Loading } from '../../components/page-states';
import { useMarkRead, useNotifications, type Notification } from './api';
import { NotificationItem } from './notification-item';

/** How many of the latest notifications the bell lists; the page lists them all. */
const LATEST = 8;

export const bellLabel = (unread: number) => `Notifications, ${unread} unread`;

function BellIcon() {
  return (
    <svg aria-hidden width={20} height={20} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round">
      <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
      <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
    </svg>
  );
}

/**
 * The notification centre in the header: a bell with the unread count (asked again every minute and on coming
 * back to the window), opening the latest notifications with "Mark all read" and a way to the full list.
 * Opening a notification marks it read and goes to its subject.
 */
export function NotificationBell() {
  const [opened, setOpened] = useState(false);
  const latest = useNotifications({ page: 1, page_size: LATEST }, { poll: true });
  const markRead = useMarkRead();
  const unread = latest.data?.unread_count ?? 0;
  const open = (notification: Notification) => {
    setOpened(false);
    if (notification.read_at === null) markRead.mutate({ ids: [notification.id] });
  };
  const toggle = () => {
    if (!opened) void latest.refetch();
    setOpened(!opened);
  };
  return (
    <Popover opened={opened} onChange={setOpened} width={380} position="bottom-end" shadow="md" trapFocus returnFocus>
      <Popover.Target>
        <ActionIcon variant="subtle" color="dark" size="lg" onClick={toggle} aria-label={bellLabel(unread)} data-testid="notification-bell">
          <Indicator label={unread > 99 ? '99+' : unread} disabled={unread === 0} size={16} color="red.9" offset={2} aria-hidden>
            <BellIcon />
          </Indicator>
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown p={0} role="dialog" aria-label="Notifications" data-testid="notification-centre">
        <Group justify="space-between" px="sm" py="xs">
          <Text fw={700}>Notifications</Text>
          <Button size="xs" variant="subtle" disabled={unread === 0} loading={markRead.isPending && markRead.variables?.all === true} onClick={() => markRead.mutate({ all: true })}>
            Mark all read
          </Button>
        </Group>
        <Divider />
        <ErrorDisplay error={markRead.error} title="Not marked read" />
        {latest.error ? (
          <ErrorDisplay error={latest.error} title="Could not load your notifications" />
        ) : latest.data === undefined ? (
          <Loading label="Loading your notifications" />
        ) : latest.data.data.length === 0 ? (
          <Empty title="No notifications" next="You are told here when a BRA you work on moves or someone comments on it." />
        ) : (
          <ScrollArea.Autosize mah={420} type="auto">
            <Stack gap={2} p={4} component="ul" style={{ listStyle: 'none', margin: 0 }}>
              {latest.data.data.map((notification) => (
                <li key={notification.id}>
                  <NotificationItem notification={notification} compact onOpen={open} />
                </li>
              ))}
            </Stack>
          </ScrollArea.Autosize>
        )}
        <Divider />
        <Group justify="center" py="xs">
          <Anchor component={Link} to="/notifications" size="sm" onClick={() => setOpened(false)}>
            See all notifications
          </Anchor>
        </Group>
      </Popover.Dropdown>
    </Popover>
  );
}
