import { Badge, Button, Card, Group, MultiSelect, NativeSelect, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { ErrorDisplay, fieldError } from '../../components/error-display';
import { Empty, QueryState, ScreenTitle } from '../../components/page-states';
import { formatTime } from '../../lib/format';
import { useLegalEntities } from '../legal-entities/api';
import { useIssueScimToken, useMapScimGroup, useRevokeScimToken, useScimGroup, useScimGroups, useScimTokens } from './api';
import { ConfirmButton, SecretOnce, toastDone } from '../../components/confirm-button';

const GROUP_ROLES = [{ value: '', label: 'Not mapped' }, { value: 'assessor', label: 'Assessor' }, { value: 'reviewer', label: 'Reviewer' }];

function GroupMapping({ groupId, onDone }: { groupId: string; onDone: () => void }) {
  const group = useScimGroup(groupId);
  const entities = useLegalEntities();
  const map = useMapScimGroup();
  const [role, setRole] = useState<string | null>(null);
  const [assigned, setAssigned] = useState<string[] | null>(null);
  return (
    <Card withBorder>
      <QueryState query={group}>
        {(data) => (
          <Stack>
            <Title order={2} size="h4">Mapping of {data.display_name}</Title>
            <NativeSelect label="Role its members get" data={GROUP_ROLES} value={role ?? data.role ?? ''} onChange={(event) => setRole(event.currentTarget.value)} />
            <MultiSelect label="Legal entities its members may see" data={(entities.data ?? []).map((entity) => ({ value: entity.id, label: entity.name }))}
              value={assigned ?? data.entity_assignments.map((a) => a.legal_entity_id)} onChange={setAssigned} error={fieldError(map.error, 'entity_assignments')} />
            <ErrorDisplay error={map.error} title="The mapping did not change" />
            <Group justify="flex-end">
              <Button variant="default" onClick={onDone}>Close</Button>
              <Button loading={map.isPending} onClick={() => {
                const nextRole = (role ?? data.role ?? '') || null;
                map.mutate(
                  { id: data.id, body: { role: nextRole as 'assessor' | 'reviewer' | null, entity_assignments: (assigned ?? data.entity_assignments.map((a) => a.legal_entity_id)).map((id) => ({ legal_entity_id: id })) } },
                  { onSuccess: () => { toastDone(`${data.display_name} is mapped${nextRole ? ` to ${nextRole}` : ' to no role'}.`); onDone(); } },
                );
              }}>Save mapping</Button>
            </Group>
          </Stack>
        )}
      </QueryState>
    </Card>
  );
}

export function ProvisioningScreen() {
  const tokens = useScimTokens();
  const groups = useScimGroups();
  const issue = useIssueScimToken();
  const revoke = useRevokeScimToken();
  const [issued, setIssued] = useState<{ token: string; url: string } | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const form = useForm({ initialValues: { name: '' } });
  return (
    <>
      <ScreenTitle>Provisioning (SCIM)</ScreenTitle>
      <Stack>
        <Card withBorder>
          <Stack>
            <Title order={2} size="h4">Provider tokens</Title>
            <form onSubmit={form.onSubmit((values) => issue.mutate({ name: values.name }, { onSuccess: (answer) => { form.reset(); setIssued({ token: answer.data.token, url: answer.data.scim_base_url }); toastDone(`The token ${answer.data.name} was issued.`); } }))}>
              <Group align="flex-end">
                <TextInput label="Which provider holds it" placeholder="Entra ID provisioning" required {...form.getInputProps('name')} error={fieldError(issue.error, 'name')} />
                <Button type="submit" loading={issue.isPending}>Issue provider token</Button>
              </Group>
            </form>
            <ErrorDisplay error={issue.error ?? revoke.error} title="The token did not change" />
            <QueryState query={tokens}>
              {(list) => list.length === 0 ? <Empty title="No provider token yet" next="Issue one and give it, with the tenant URL, to the identity provider." /> : (
                <Table.ScrollContainer minWidth={640}>
                  <Table>
                    <Table.Thead><Table.Tr><Table.Th>Name</Table.Th><Table.Th>Starts with</Table.Th><Table.Th>Last used</Table.Th><Table.Th>State</Table.Th></Table.Tr></Table.Thead>
                    <Table.Tbody>
                      {list.map((token) => (
                        <Table.Tr key={token.id}>
                          <Table.Td>{token.name}</Table.Td>
                          <Table.Td><Text size="sm" ff="monospace">{token.hint}…</Text></Table.Td>
                          <Table.Td>{token.last_used_at ? formatTime(token.last_used_at) : 'Never'}</Table.Td>
                          <Table.Td>
                            {token.revoked_at ? <Badge color="red" variant="light">Revoked</Badge> : (
                              <ConfirmButton label="Revoke" title={`Revoke ${token.name}?`} onConfirm={() => revoke.mutate(token.id, { onSuccess: () => toastDone(`${token.name} was revoked.`) })}>
                                The provider can no longer create, change or deactivate members with it.
                              </ConfirmButton>
                            )}
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              )}
            </QueryState>
          </Stack>
        </Card>
        <Card withBorder>
          <Stack>
            <Title order={2} size="h4">Groups pushed by the provider</Title>
            <QueryState query={groups}>
              {(list) => list.length === 0 ? <Empty title="No groups yet" next="Groups appear here once the provider pushes them; then map each to a role and its legal entities." /> : (
                <Table.ScrollContainer minWidth={640}>
                  <Table>
                    <Table.Thead><Table.Tr><Table.Th>Group</Table.Th><Table.Th>Members</Table.Th><Table.Th>Role</Table.Th><Table.Th>Legal entities</Table.Th><Table.Th>Mapping</Table.Th></Table.Tr></Table.Thead>
                    <Table.Tbody>
                      {list.map((group) => (
                        <Table.Tr key={group.id}>
                          <Table.Td>{group.display_name}</Table.Td>
                          <Table.Td>{group.member_count}</Table.Td>
                          <Table.Td>{group.role ?? 'Not mapped'}</Table.Td>
                          <Table.Td>{group.entity_assignments.map((a) => a.name).join(', ') || 'None'}</Table.Td>
                          <Table.Td><Button size="xs" variant="light" onClick={() => setEditing(group.id)}>Change mapping</Button></Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              )}
            </QueryState>
          </Stack>
        </Card>
        {editing !== null && <GroupMapping key={editing} groupId={editing} onDone={() => setEditing(null)} />}
      </Stack>
      <SecretOnce title="The provider token" secret={issued?.token ?? null} onClose={() => setIssued(null)}>
        <Text size="sm">Tenant URL for the provider: <Text span ff="monospace">{issued?.url}</Text></Text>
      </SecretOnce>
    </>
  );
}
