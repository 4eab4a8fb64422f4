import { Badge, Button, Checkbox, Group, Modal, Select, Switch, Table, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useState } from 'react';
import { ErrorDisplay } from '../../components/error-display';
import { Empty, Pager, QueryState, ScreenTitle } from '../../components/page-states';
import { useCaller } from '../me/caller-context';
import { ACTION_STATUSES, PRIORITIES, useActions, useArchiveAction, useBulkStatus, type ActionStatus } from './api';
import { CreateActionForm } from './create-action-form';

export function ActionsScreen() {
  const caller = useCaller();
  const editor = caller.abilities.change_actions;
  const [status, setStatus] = useState<ActionStatus | null>(null);
  const [priority, setPriority] = useState<string | null>(null);
  const [overdueOnly, setOverdueOnly] = useState(false);
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<string[]>([]);
  const [bulkStatus, setBulkStatus] = useState<ActionStatus | null>(null);
  const [creating, { open, close }] = useDisclosure(false);
  const actions = useActions({ status: status ?? undefined, priority: (priority ?? undefined) as never, overdue_only: overdueOnly || undefined, page, page_size: 20 });
  const bulk = useBulkStatus();
  const archive = useArchiveAction();
  const filter = (apply: () => void) => { apply(); setPage(1); setSelected([]); };
  const toggle = (id: string) => setSelected((current) => (current.includes(id) ? current.filter((entry) => entry !== id) : [...current, id]));
  return (
    <>
      <ScreenTitle actions={editor && <Button onClick={open}>New action</Button>}>Mitigation actions</ScreenTitle>
      <Group mb="md" align="flex-end">
        <Select label="Status" placeholder="Any status" clearable data={ACTION_STATUSES} value={status} onChange={(value) => filter(() => setStatus(value as ActionStatus | null))} />
        <Select label="Priority" placeholder="Any priority" clearable data={PRIORITIES} value={priority} onChange={(value) => filter(() => setPriority(value))} />
        <Switch label="Overdue only" checked={overdueOnly} onChange={(event) => { const checked = event.currentTarget.checked; filter(() => setOverdueOnly(checked)); }} />
      </Group>
      {editor && selected.length > 0 && (
        <Group mb="md" align="flex-end" data-testid="bulk-bar">
          <Text size="sm">{selected.length} selected</Text>
          <Select label="New status" data={ACTION_STATUSES} value={bulkStatus} onChange={(value) => setBulkStatus(value as ActionStatus | null)} />
          <Button disabled={bulkStatus === null} loading={bulk.isPending} onClick={() => bulkStatus && bulk.mutate({ ids: selected, status: bulkStatus }, { onSuccess: () => setSelected([]) })}>
            Apply to selected
          </Button>
        </Group>
      )}
      <ErrorDisplay error={bulk.error ?? archive.error} />
      {bulk.data && <Text size="sm" mb="sm" role="status">{bulk.data.updated_count} action{bulk.data.updated_count === 1 ? '' : 's'} updated.</Text>}
      <QueryState query={actions}>
        {(answer) =>
          answer.data.length === 0 ? (
            <Empty title="No mitigation actions here" next={editor ? 'Create one with "New action", or clear the filters.' : 'Clear the filters to see every action you may see.'} />
          ) : (
            <>
              <Table.ScrollContainer minWidth={720}>
                <Table>
                  <Table.Thead>
                    <Table.Tr>
                      {editor && <Table.Th><Checkbox aria-label="Select every action on this page" checked={answer.data.every((action) => selected.includes(action.id))} onChange={(event) => setSelected(event.currentTarget.checked ? answer.data.map((action) => action.id) : [])} /></Table.Th>}
                      <Table.Th>Action</Table.Th>
                      <Table.Th>Owner</Table.Th>
                      <Table.Th>Priority</Table.Th>
                      <Table.Th>Status</Table.Th>
                      <Table.Th>Due</Table.Th>
                      <Table.Th>BRA</Table.Th>
                      {editor && <Table.Th>Archive</Table.Th>}
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {answer.data.map((action) => (
                      <Table.Tr key={action.id} data-testid="action-row" data-overdue={action.is_overdue || undefined} bg={action.is_overdue ? 'red.0' : undefined}>
                        {editor && <Table.Td><Checkbox aria-label={`Select ${action.action}`} checked={selected.includes(action.id)} onChange={() => toggle(action.id)} /></Table.Td>}
                        <Table.Td>{action.action}</Table.Td>
                        <Table.Td>{action.owner}</Table.Td>
                        <Table.Td>{action.priority}</Table.Td>
                        <Table.Td data-testid="action-status">{ACTION_STATUSES.find((entry) => entry.value === action.status)?.label}</Table.Td>
                        <Table.Td>
                          {action.due_date} {action.is_overdue && <Badge color="red" variant="filled" size="sm">Overdue</Badge>}
                        </Table.Td>
                        <Table.Td>{action.bra?.name ?? '–'}</Table.Td>
                        {editor && (
                          <Table.Td>
                            <Button size="xs" variant="subtle" color="gray" onClick={() => archive.mutate(action.id)} aria-label={`Archive ${action.action}`}>Archive</Button>
                          </Table.Td>
                        )}
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
              <Pager pagination={answer.pagination} onChange={(next) => { setPage(next); setSelected([]); }} />
            </>
          )
        }
      </QueryState>
      <Modal opened={creating} onClose={close} title="New mitigation action">
        <CreateActionForm onCreated={close} />
      </Modal>
    </>
  );
}
