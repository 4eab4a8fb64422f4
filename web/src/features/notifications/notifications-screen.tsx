import { Button, Group, Switch, Table, Text } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { ErrorDisplay } from '../../components/error-display';
import { PagedTable } from '../../components/paged-table';
import { Empty, QueryState, ScreenTitle } from '../../components/page-states';
import { useMarkRead, useNotifications, type Notification } from './api';
import { NotificationItem } from './notification-item';

const COLUMNS = ['Notification'] as const;

/**
 * Every notification of the caller, newest first, a page at a time; "Unread only" and the page are kept in
 * the address. Opening one marks it read and goes to its subject.
 */
export function NotificationsScreen() {
  const [params, setParams] = useSearchParams();
  const unreadOnly = params.get('unread') === 'true';
  const page = Math.max(1, Number(params.get('page') ?? '1') || 1);
  const list = useNotifications({ page, page_size: 20, unread_only: unreadOnly || undefined });
  const markRead = useMarkRead();
  const unread = list.data?.unread_count ?? 0;
  const show = (next: { unread?: boolean; page?: number }) => {
    const query = new URLSearchParams();
    if (next.unread ?? unreadOnly) query.set('unread', 'true');
    if ((next.page ?? 1) > 1) query.set('page', String(next.page));
    setParams(query, { replace: true });
  };
  const open = (notification: Notification) => {
    if (notification.read_at === null) markRead.mutate({ ids: [notification.id] });
  };
  return (
    <>
      <ScreenTitle
        actions={
          <Button variant="default" disabled={unread === 0} loading={markRead.isPending && markRead.variables?.all === true} onClick={() => markRead.mutate({ all: true })}>
            Mark all read
          </Button>
        }
      >
        Notifications
      </ScreenTitle>
      <Group mb="md" justify="space-between">
        <Switch label="Unread only" checked={unreadOnly} onChange={(event) => show({ unread: event.currentTarget.checked })} />
        <Text size="sm" role="status" data-testid="unread-count">
          {unread === 0 ? 'Nothing unread' : `${unread} unread`}
        </Text>
      </Group>
      <ErrorDisplay error={markRead.error} title="Not marked read" />
      <QueryState query={list}>
        {(answer) =>
          answer.data.length === 0 ? (
            <Empty
              title={unreadOnly ? 'Nothing unread' : 'No notifications yet'}
              next={unreadOnly ? 'Turn off "Unread only" to see the ones you have read.' : 'You are told here when a BRA you work on moves or someone comments on it.'}
            />
          ) : (
            <PagedTable minWidth={320} columns={COLUMNS} pagination={answer.pagination} onPage={(next) => show({ page: next })}>
              {answer.data.map((notification) => (
                <Table.Tr key={notification.id}>
                  <Table.Td p={2}>
                    <NotificationItem notification={notification} onOpen={open} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </PagedTable>
          )
        }
      </QueryState>
    </>
  );
}
