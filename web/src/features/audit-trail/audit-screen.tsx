import { Badge, Button, Checkbox, Group, Pill, Select, Stack, Table, Tabs, Text, UnstyledButton } from '@mantine/core';
import { DateField } from '../../components/date-field';
import { useState } from 'react';
import { ErrorDisplay } from '../../components/error-display';
import { Empty, QueryState, ScreenTitle } from '../../components/page-states';
import { PagedTable } from '../../components/paged-table';
import { formatTime } from '../../lib/format';
import { useAuditEntries, useExportAudit, useVerifyAudit, type AuditEntry, type AuditFilters } from './api';
import { AuditEntryDrawer } from './audit-entry-drawer';
import { CheckpointsPanel } from './checkpoints-panel';
import { ACTION_KINDS, actionLabel, RECORD_KINDS, recordLabel } from './record-kinds';
import { VerificationResult } from './verification-result';

const ACTION_OPTIONS = Object.entries(ACTION_KINDS).map(([value, label]) => ({ value, label }));
const RECORD_OPTIONS = Object.entries(RECORD_KINDS).map(([value, kind]) => ({ value, label: kind.label }));

export function AuditScreen() {
  const [filters, setFilters] = useState<AuditFilters>({});
  const [page, setPage] = useState(1);
  const [opened, setOpened] = useState<AuditEntry | null>(null);
  const entries = useAuditEntries({ ...filters, page, page_size: 25 });
  const exporter = useExportAudit();
  const verify = useVerifyAudit();
  const [withEvidence, setWithEvidence] = useState(false);
  const set = (patch: Partial<AuditFilters>) => { setFilters((current) => ({ ...current, ...patch })); setPage(1); };
  return (
    <>
      <ScreenTitle
        actions={
          <Group gap="xs">
            <Button variant="default" onClick={() => exporter.mutate({ filters, format: 'csv' })} loading={exporter.isPending && exporter.variables?.format === 'csv'}>Export CSV</Button>
            <Button variant="default" onClick={() => exporter.mutate({ filters, format: 'json' })} loading={exporter.isPending && exporter.variables?.format === 'json'}>Export JSON</Button>
            <Checkbox label="Hash the evidence files again" checked={withEvidence} onChange={(event) => setWithEvidence(event.currentTarget.checked)} />
            <Button onClick={() => verify.mutate({ evidence: withEvidence })} loading={verify.isPending}>Verify the trail</Button>
          </Group>
        }
      >
        Audit trail
      </ScreenTitle>
      <ErrorDisplay error={exporter.error} title="The export failed" />
      {exporter.data && <Text size="sm" role="status" mb="sm">Downloaded {exporter.data}.</Text>}
      <ErrorDisplay error={verify.error} title="The verification could not run" />
      {verify.data && <Stack mb="md"><VerificationResult verification={verify.data} against="the chain and the service's signed checkpoints" /></Stack>}
      <Tabs defaultValue="entries" keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="entries">Entries</Tabs.Tab>
          <Tabs.Tab value="checkpoints">Signed checkpoints</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="entries">
          <Group mb="sm" align="flex-end">
            <Select label="Action" placeholder="Any action" clearable data={ACTION_OPTIONS} value={filters.action_type ?? null} onChange={(value) => set({ action_type: (value ?? undefined) as AuditFilters['action_type'] })} />
            <Select label="Record kind" placeholder="Any kind" clearable searchable data={RECORD_OPTIONS} value={filters.entity_type ?? null} onChange={(value) => set({ entity_type: (value ?? undefined) as AuditFilters['entity_type'] })} />
            <DateField label="From" clearable value={filters.start_date ?? null} onChange={(value) => set({ start_date: value ?? undefined })} />
            <DateField label="To" clearable value={filters.end_date ?? null} onChange={(value) => set({ end_date: value ?? undefined })} />
          </Group>
          <ChosenFilters filters={filters} onClear={(key) => set({ [key]: undefined })} />
          <QueryState query={entries}>
            {(answer) =>
              answer.data.length === 0 ? (
                <Empty title="No entries match" next="Widen the dates or clear the filters." />
              ) : (
                <PagedTable minWidth={720} striped highlightOnHover columns={['When', 'Who', 'Action', 'Record', 'Status']} pagination={answer.pagination} onPage={setPage}>
                  {answer.data.map((entry) => (
                    <Table.Tr key={entry.id}>
                      <Table.Td>
                        <UnstyledButton onClick={() => setOpened(entry)} aria-label={`Open the entry of ${formatTime(entry.created_at)}`} td="underline">
                          {formatTime(entry.created_at)}
                        </UnstyledButton>
                      </Table.Td>
                      <Table.Td>{entry.user_name ?? entry.user_email ?? '–'}</Table.Td>
                      <Table.Td>{actionLabel(entry.action_type)}</Table.Td>
                      <Table.Td>{recordLabel(entry.entity_type)}</Table.Td>
                      <Table.Td><Badge color={entry.status === 'success' ? 'green' : 'red'} variant="light">{entry.status}</Badge></Table.Td>
                    </Table.Tr>
                  ))}
                </PagedTable>
              )
            }
          </QueryState>
        </Tabs.Panel>
        <Tabs.Panel value="checkpoints">
          <CheckpointsPanel />
        </Tabs.Panel>
      </Tabs>
      <AuditEntryDrawer entry={opened} onClose={() => setOpened(null)} onFilter={set} />
    </>
  );
}

/** The person and record filters, set from an entry's detail, shown so they can be taken off again. */
function ChosenFilters({ filters, onClear }: { filters: AuditFilters; onClear: (key: 'user_id' | 'entity_id') => void }) {
  if (!filters.user_id && !filters.entity_id) return null;
  return (
    <Group gap="xs" mb="sm" data-testid="chosen-filters">
      {filters.user_id && (
        <Pill size="md" withRemoveButton onRemove={() => onClear('user_id')} removeButtonProps={{ 'aria-label': "Show every person's entries" }}>
          Only one person's entries
        </Pill>
      )}
      {filters.entity_id && (
        <Pill size="md" withRemoveButton onRemove={() => onClear('entity_id')} removeButtonProps={{ 'aria-label': "Show every record's entries" }}>
          Only one record's entries
        </Pill>
      )}
    </Group>
  );
}
