import { Badge, Button, Checkbox, Group, Modal, Select, Switch, Table, Text } from '@mantine/core';
import { ConfirmButton, toastDone } from '../../components/confirm-button';
import { WHOLE_BADGE } from '../../components/level-colors';
import { useDisclosure } from '@mantine/hooks';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { ErrorDisplay } from '../../components/error-display';
import { Empty, Pager, QueryState, ScreenTitle } from '../../components/page-states';
import { useCaller } from '../me/caller-context';
import { ACTION_STATUSES, PRIORITIES, useActions, useArchiveAction, type ActionStatus, type MitigationAction } from './api';
import { BulkBar } from './bulk-bar';
import { CreateActionForm } from './create-action-form';
import { EditActionForm } from './edit-action-form';
import { EvidencePanel } from '../evidence/evidence-panel';

/**
 * The actions the caller may see, filtered. A link may name a BRA (`?bra_id=`: only its actions) and an action
 * (`?action=`: its row marked and scrolled to), as a notification about an action does.
 */
export function ActionsScreen() {
  const caller = useCaller();
  const [params, setParams] = useSearchParams();
  const braId = params.get('bra_id') ?? undefined;
  const focus = params.get('action');
  const editor = caller.abilities.change_actions;
  const [status, setStatus] = useState<ActionStatus | null>(null);
  const [priority, setPriority] = useState<string | null>(null);
  const [overdueOnly, setOverdueOnly] = useState(false);
  const [mineOnly, setMineOnly] = useState(false);
  const [archived, setArchived] = useState(false);
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<string[]>([]);
  const [editing, setEditing] = useState<MitigationAction | null>(null);
  const [bulkUpdated, setBulkUpdated] = useState<number | null>(null);
  const [files, setFiles] = useState<MitigationAction | null>(null);
  const [creating, { open, close }] = useDisclosure(false);
  const actions = useActions({ bra_id: braId, status: status ?? undefined, priority: (priority ?? undefined) as never, overdue_only: overdueOnly || undefined, owner_user_id: mineOnly ? 'me' : undefined, archived: archived || undefined, page, page_size: 20 });
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
        <Switch label="Assigned to me" checked={mineOnly} onChange={(event) => { const checked = event.currentTarget.checked; filter(() => setMineOnly(checked)); }} />
        <Switch label="Archived too" checked={archived} onChange={(event) => { const checked = event.currentTarget.checked; filter(() => setArchived(checked)); }} />
        {braId !== undefined && (
          <Button variant="light" onClick={() => filter(() => setParams({}, { replace: true }))}>
            Only one BRA's actions: show every action
          </Button>
        )}
      </Group>
      {editor && selected.length > 0 && <BulkBar selected={selected} onDone={(count) => { setSelected([]); setBulkUpdated(count); }} />}
      {bulkUpdated !== null && selected.length === 0 && <Text size="sm" mb="sm" role="status">{bulkUpdated} action{bulkUpdated === 1 ? '' : 's'} updated.</Text>}
      <ErrorDisplay error={archive.error} title="The action was not archived" />
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
                      <Table.Th>BRA and scenario</Table.Th>
                      <Table.Th>Evidence</Table.Th>
                      {editor && <Table.Th>Changes</Table.Th>}
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {answer.data.map((action) => (
                      <Table.Tr
                        key={action.id}
                        data-testid="action-row"
                        data-overdue={action.is_overdue || undefined}
                        aria-current={action.id === focus || undefined}
                        ref={action.id === focus ? (row) => row?.scrollIntoView?.({ block: 'center' }) : undefined}
                        bg={action.id === focus ? 'yellow.0' : action.is_overdue ? 'red.0' : undefined}
                      >
                        {editor && (
                          <Table.Td>
                            {action.abilities.update && <Checkbox aria-label={`Select ${action.action}`} checked={selected.includes(action.id)} onChange={() => toggle(action.id)} />}
                          </Table.Td>
                        )}
                        <Table.Td>
                          {action.action}
                          {action.archived && <Badge ml="xs" size="xs" color="gray" style={WHOLE_BADGE}>Archived</Badge>}
                        </Table.Td>
                        <Table.Td>
                          {action.owner}
                          {action.owner_user && <Text size="xs" c="dimmed" data-testid="action-assignee">Assigned to {action.owner_user.full_name}</Text>}
                        </Table.Td>
                        <Table.Td>{action.priority}</Table.Td>
                        <Table.Td data-testid="action-status">{ACTION_STATUSES.find((entry) => entry.value === action.status)?.label}</Table.Td>
                        <Table.Td>
                          {action.due_date} {action.is_overdue && <Badge color="red" variant="filled" size="sm" style={WHOLE_BADGE}>Overdue</Badge>}
                        </Table.Td>
                        <Table.Td>
                          {action.bra?.name ?? '–'}
                          {action.risk_scenario && <Text size="xs" c="dimmed">{action.risk_scenario.name}</Text>}
                        </Table.Td>
                        <Table.Td>
                          <Button size="xs" variant="default" onClick={() => setFiles(action)} aria-label={`Files of ${action.action}`}>Files</Button>
                        </Table.Td>
                        {editor && (
                          <Table.Td>
                            <Group gap={4} wrap="nowrap">
                              {action.abilities.update && (
                                <Button size="xs" variant="light" onClick={() => setEditing(action)} aria-label={`Edit ${action.action}`}>Edit</Button>
                              )}
                              {action.abilities.archive && (
                                <ConfirmButton
                                  label="Archive"
                                  aria-label={`Archive ${action.action}`}
                                  title="Archive this action?"
                                  loading={archive.isPending && archive.variables === action.id}
                                  onConfirm={() => archive.mutate(action.id, { onSuccess: () => toastDone(`${action.action} is archived.`) })}
                                >
                                  {action.action} leaves the list of actions; it can be found again with "Archived too". Archived actions cannot be changed.
                                </ConfirmButton>
                              )}
                            </Group>
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
      <Modal opened={files !== null} onClose={() => setFiles(null)} title={files ? `Files of ${files.action}` : ''} size="lg">
        {files && <EvidencePanel record={{ record_type: 'mitigation_action', record_id: files.id }} title="Evidence of this action" />}
      </Modal>
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title="Mitigation action">
        {editing && <EditActionForm action={editing} onSaved={() => setEditing(null)} />}
      </Modal>
    </>
  );
}
