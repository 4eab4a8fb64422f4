import { Anchor, Badge, Button, Group, Select, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { toastDone } from '../../components/confirm-button';
import { useState } from 'react';
import { ErrorDisplay } from '../../components/error-display';
import { Empty, QueryState, ScreenTitle } from '../../components/page-states';
import { PagedTable } from '../../components/paged-table';
import { formatTime } from '../../lib/format';
import { useAlerts, useChangeAlert, type AlertQuery } from './api';

/** The screen an alert is about: its enterprise's health, the enterprise's members, or none (platform-wide). */
function screenOf(alert: { type: string; enterprise_id: string | null }): { to: string; label: string } | null {
  if (alert.enterprise_id === null) return null;
  if (alert.type === 'authentication') return { to: '/admin/users', label: 'Open Users' };
  return { to: `/admin/enterprises?health=${alert.enterprise_id}`, label: "Open the enterprise's health" };
}

const SEVERITY_COLORS: Record<string, string> = { info: 'blue', warning: 'yellow', error: 'orange', critical: 'red' };

export function AlertsScreen() {
  const [status, setStatus] = useState<string | null>('open');
  const [page, setPage] = useState(1);
  const alerts = useAlerts({ status: (status ?? undefined) as AlertQuery['status'], page });
  const change = useChangeAlert();
  return (
    <>
      <ScreenTitle>System alerts</ScreenTitle>
      <Group mb="md">
        <Select label="Status" placeholder="Any status" clearable data={['open', 'acknowledged', 'resolved']} value={status} onChange={(value) => { setStatus(value); setPage(1); }} />
      </Group>
      <ErrorDisplay error={change.error} title="The alert did not change" />
      <QueryState query={alerts}>
        {(answer) =>
          answer.data.length === 0 ? (
            <Empty title="No alerts" next="Nothing needs attention with these filters." />
          ) : (
            <PagedTable minWidth={720} columns={['When', 'Severity', 'Alert', 'Status', 'Change']} pagination={answer.pagination} onPage={setPage}>
              {answer.data.map((alert) => (
                <Table.Tr key={alert.id}>
                  <Table.Td>{formatTime(alert.created_at)}</Table.Td>
                  <Table.Td><Badge color={SEVERITY_COLORS[alert.severity] ?? 'gray'} variant="light">{alert.severity}</Badge></Table.Td>
                  <Table.Td><Text size="sm" fw={600}>{alert.title}</Text><Text size="sm">{alert.message}</Text>
                    {screenOf(alert) && <Anchor component={Link} to={screenOf(alert)!.to} size="sm">{screenOf(alert)!.label}</Anchor>}
                  </Table.Td>
                  <Table.Td>{alert.status}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      {alert.status === 'open' && <Button size="xs" variant="light" onClick={() => change.mutate({ id: alert.id, body: { status: 'acknowledged', notes: 'Acknowledged in the console' } }, { onSuccess: () => toastDone(`“${alert.title}” was acknowledged.`) })}>Acknowledge</Button>}
                      {alert.status !== 'resolved' && <Button size="xs" variant="light" color="green" onClick={() => change.mutate({ id: alert.id, body: { status: 'resolved', resolution: 'Resolved in the console' } }, { onSuccess: () => toastDone(`“${alert.title}” was resolved.`) })}>Resolve</Button>}
                    </Group>
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
