import { Anchor, Badge, Button, Card, Group, Stack, Switch, Table, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import { ErrorDisplay } from '../../components/error-display';
import { WHOLE_BADGE, effectivenessColor } from '../../components/level-colors';
import { Link } from 'react-router';
import { Empty, Pager, QueryState, ScreenTitle } from '../../components/page-states';
import { useCaller } from '../me/caller-context';
import { useCreateKeyControl, useCreateSubControl, useKeyControls, type KeyControl } from './api';
import { KeyControlActions } from './key-control-actions';
import { SubControlFinder } from './sub-control-finder';

function NewNamed({ label, onCreate, pending, error }: { label: string; onCreate: (name: string) => void; pending: boolean; error: unknown }) {
  const [name, setName] = useState('');
  return (
    <Stack gap={4}>
      <Group align="flex-end">
        <TextInput label={label} value={name} onChange={(event) => setName(event.currentTarget.value)} style={{ flex: 1 }} />
        <Button onClick={() => { onCreate(name); setName(''); }} loading={pending} disabled={name.trim() === ''}>Add</Button>
      </Group>
      <ErrorDisplay error={error} title="Not added" />
    </Stack>
  );
}

function KeyControlCard({ keyControl }: { keyControl: KeyControl }) {
  const caller = useCaller();
  const createSub = useCreateSubControl();
  return (
    <Card withBorder data-testid="key-control">
      <Group justify="space-between" wrap="wrap">
        <Group gap="xs">
          <Title order={2} size="h4">{keyControl.name}</Title>
          {keyControl.archived && <Badge color="gray" style={WHOLE_BADGE}>Archived</Badge>}
        </Group>
        {caller.abilities.manage_control_library && <KeyControlActions keyControl={keyControl} />}
      </Group>
      {keyControl.description && <Text size="sm" c="dimmed">{keyControl.description}</Text>}
      {keyControl.sub_controls.length === 0 ? (
        <Text size="sm" mt="xs">No sub-controls yet.</Text>
      ) : (
        <Table.ScrollContainer minWidth={420}>
          <Table mt="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Sub-control</Table.Th>
                <Table.Th>ToD</Table.Th>
                <Table.Th>ToE</Table.Th>
                <Table.Th>Effectiveness</Table.Th>
                {caller.abilities.record_control_tests && <Table.Th><VisuallyHidden>Test</VisuallyHidden></Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {keyControl.sub_controls.map((sub) => (
                <Table.Tr key={sub.id} data-testid="sub-control-row">
                  <Table.Td><Anchor component={Link} to={`/controls/sub-controls/${sub.id}`} size="sm">{sub.name}</Anchor></Table.Td>
                  <Table.Td>{sub.tod ?? '–'}</Table.Td>
                  <Table.Td>{sub.toe ?? '–'}</Table.Td>
                  <Table.Td><Badge color={effectivenessColor(sub.total_effectiveness)} variant="light" style={WHOLE_BADGE}>{sub.total_effectiveness ?? 'Not assessed'}</Badge></Table.Td>
                  {caller.abilities.record_control_tests && (
                    <Table.Td>
                      <Button size="xs" variant="light" component={Link} to={`/controls/sub-controls/${sub.id}`} aria-label={`Record test of ${sub.name}`}>Record test</Button>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {caller.abilities.manage_control_library && !keyControl.archived && (
        <NewNamed label="New sub-control" pending={createSub.isPending} error={createSub.error} onCreate={(name) => createSub.mutate({ key_control_id: keyControl.id, name })} />
      )}
    </Card>
  );
}

export function ControlsScreen() {
  const caller = useCaller();
  const [page, setPage] = useState(1);
  const [archived, setArchived] = useState(false);
  const controls = useKeyControls(page, 20, archived);
  const createKey = useCreateKeyControl();
  return (
    <>
      <ScreenTitle>Control library</ScreenTitle>
      {caller.abilities.manage_control_library && (
        <Card withBorder mb="md">
          <NewNamed label="New key control" pending={createKey.isPending} error={createKey.error} onCreate={(name) => createKey.mutate({ name })} />
        </Card>
      )}
      <Card withBorder mb="md">
        <SubControlFinder />
      </Card>
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4">Key controls</Title>
        <Switch label="Show archived key controls" checked={archived} onChange={(event) => { setArchived(event.currentTarget.checked); setPage(1); }} />
      </Group>
      <QueryState query={controls}>
        {(answer) =>
          answer.data.length === 0 ? (
            <Empty title="The control library is empty" next={caller.abilities.manage_control_library ? 'Add a key control above, then its sub-controls.' : 'A client admin adds key controls and sub-controls.'} />
          ) : (
            <Stack>
              {answer.data.map((keyControl) => <KeyControlCard key={keyControl.id} keyControl={keyControl} />)}
              <Pager pagination={answer.pagination} onChange={setPage} />
            </Stack>
          )
        }
      </QueryState>
    </>
  );
}
