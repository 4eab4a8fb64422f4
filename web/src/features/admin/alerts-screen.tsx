import { Badge, Button, Group, Select, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { ErrorDisplay } from '../../components/error-display';
import { Empty, Pager, QueryState, ScreenTitle } from '../../components/page-states';
import { formatTime } from '../../lib/format';
import { useAlerts, useChangeAlert, type AlertQuery } from './api';

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
            <>
              <Table.ScrollContainer minWidth={720}>
                <Table>
                  <Table.Thead>
                    <Table.Tr><Table.Th>When</Table.Th><Table.Th>Severity</Table.Th><Table.Th>Alert</Table.Th><Table.Th>Status</Table.Th><Table.Th>Change</Table.Th></Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {answer.data.map((alert) => (
                      <Table.Tr key={alert.id}>
                        <Table.Td>{formatTime(alert.created_at)}</Table.Td>
                        <Table.Td><Badge color={SEVERITY_COLORS[alert.severity] ?? 'gray'} variant="light">{alert.severity}</Badge></Table.Td>
                        <Table.Td><Text size="sm" fw={600}>{alert.title}</Text><Text size="sm">{alert.message}</Text></Table.Td>
                        <Table.Td>{alert.status}</Table.Td>
                        <Table.Td>
                          <Group gap="xs" wrap="nowrap">
                            {alert.status === 'open' && <Button size="xs" variant="light" onClick={() => change.mutate({ id: alert.id, body: { status: 'acknowledged', notes: 'Acknowledged in the console' } })}>Acknowledge</Button>}
                            {alert.status !== 'resolved' && <Button size="xs" variant="light" color="green" onClick={() => change.mutate({ id: alert.id, body: { status: 'resolved', resolution: 'Resolved in the console' } })}>Resolve</Button>}
                          </Group>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
              <Pager pagination={answer.pagination} onChange={setPage} />
            </>
          )
        }
      </QueryState>
    </>
  );
}
