import { Alert, Badge, Button, Group, Select, Table, Text } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import '@mantine/dates/styles.css';
import { useState } from 'react';
import { ErrorDisplay } from '../../components/error-display';
import { Empty, Pager, QueryState, ScreenTitle } from '../../components/page-states';
import { formatTime } from '../../lib/format';
import { useAuditEntries, useExportAudit, useVerifyAudit, type AuditFilters } from './api';

const ACTION_TYPES = ['create', 'update', 'delete', 'approve', 'cancel', 'login', 'logout', 'access_denied'];
const ENTITY_TYPES = ['bra', 'bra_rating', 'control', 'mitigation_action', 'legal_entity', 'user', 'risk_appetite'];

export function AuditScreen() {
  const [filters, setFilters] = useState<AuditFilters>({});
  const [page, setPage] = useState(1);
  const entries = useAuditEntries({ ...filters, page, page_size: 25 });
  const exporter = useExportAudit();
  const verify = useVerifyAudit();
  const set = (patch: Partial<AuditFilters>) => { setFilters((current) => ({ ...current, ...patch })); setPage(1); };
  return (
    <>
      <ScreenTitle
        actions={
          <Group gap="xs">
            <Button variant="default" onClick={() => exporter.mutate({ filters, format: 'csv' })} loading={exporter.isPending && exporter.variables?.format === 'csv'}>Export CSV</Button>
            <Button variant="default" onClick={() => exporter.mutate({ filters, format: 'json' })} loading={exporter.isPending && exporter.variables?.format === 'json'}>Export JSON</Button>
            <Button onClick={() => verify.mutate()} loading={verify.isPending}>Verify the trail</Button>
          </Group>
        }
      >
        Audit trail
      </ScreenTitle>
      <Group mb="md" align="flex-end">
        <Select label="Action" placeholder="Any action" clearable data={ACTION_TYPES} value={(filters.action_type as string | undefined) ?? null} onChange={(value) => set({ action_type: (value ?? undefined) as never })} />
        <Select label="Entity" placeholder="Any entity" clearable data={ENTITY_TYPES} value={(filters.entity_type as string | undefined) ?? null} onChange={(value) => set({ entity_type: (value ?? undefined) as never })} />
        <DateInput label="From" valueFormat="YYYY-MM-DD" clearable value={filters.start_date ?? null} onChange={(value) => set({ start_date: value ?? undefined })} />
        <DateInput label="To" valueFormat="YYYY-MM-DD" clearable value={filters.end_date ?? null} onChange={(value) => set({ end_date: value ?? undefined })} />
      </Group>
      <ErrorDisplay error={exporter.error} title="The export failed" />
      {exporter.data && <Text size="sm" role="status" mb="sm">Downloaded {exporter.data}.</Text>}
      <ErrorDisplay error={verify.error} title="The verification could not run" />
      {verify.data && (
        <Alert color={verify.data.valid ? 'green' : 'red'} title={verify.data.valid ? 'The audit trail is intact' : 'The audit trail does not verify'} mb="md" data-testid="verification">
          {verify.data.entries_checked} entries and {verify.data.checkpoints_checked} signed checkpoints checked.
          {!verify.data.valid && ` First invalid entry: ${verify.data.first_invalid_id ?? 'unknown'}.`}
        </Alert>
      )}
      <QueryState query={entries}>
        {(answer) =>
          answer.data.length === 0 ? (
            <Empty title="No entries match" next="Widen the dates or clear the filters." />
          ) : (
            <>
              <Table.ScrollContainer minWidth={720}>
                <Table striped>
                  <Table.Thead>
                    <Table.Tr><Table.Th>When</Table.Th><Table.Th>Who</Table.Th><Table.Th>Action</Table.Th><Table.Th>Entity</Table.Th><Table.Th>Status</Table.Th></Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {answer.data.map((entry) => (
                      <Table.Tr key={entry.id}>
                        <Table.Td>{formatTime(entry.created_at)}</Table.Td>
                        <Table.Td>{entry.user_name ?? entry.user_email ?? '–'}</Table.Td>
                        <Table.Td>{entry.action_type}</Table.Td>
                        <Table.Td>{entry.entity_type}</Table.Td>
                        <Table.Td><Badge color={entry.status === 'success' ? 'green' : 'red'} variant="light">{entry.status}</Badge></Table.Td>
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
