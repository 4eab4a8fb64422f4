import { Badge, Button, Card, Checkbox, Group, MultiSelect, NativeSelect, NumberInput, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { ErrorDisplay, fieldError } from '../../components/error-display';
import { Empty, QueryState, ScreenTitle } from '../../components/page-states';
import { formatTime } from '../../lib/format';
import { useLegalEntities } from '../legal-entities/api';
import {
  useCreateServiceAccount, useDeactivateServiceAccount, useIssueToken, useRevokeToken, useRotateToken, useServiceAccount, useServiceAccounts, useTokens, useUpdateServiceAccount,
  type ServiceAccount,
} from './api';
import { ConfirmButton, SecretOnce, toastDone } from '../../components/confirm-button';

const ROLES = [{ value: 'reviewer', label: 'Reviewer (reads)' }, { value: 'assessor', label: 'Assessor (reads and writes)' }, { value: 'admin', label: 'Client admin' }];
const TOKEN_COLORS: Record<string, string> = { active: 'green', expired: 'gray', revoked: 'red' };
type Role = 'admin' | 'assessor' | 'reviewer';

const daysAhead = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

function Tokens({ account }: { account: ServiceAccount }) {
  const detail = useServiceAccount(account.id);
  const tokens = useTokens(account.id);
  const issue = useIssueToken(account.id);
  const rotate = useRotateToken(account.id);
  const revoke = useRevokeToken(account.id);
  const [secret, setSecret] = useState<string | null>(null);
  const form = useForm({ initialValues: { name: '', days: 90 as number | string } });
  const current = detail.data ?? account;
  return (
    <Card withBorder>
      <Stack>
        <Title order={2} size="h4">Tokens of {current.name}</Title>
        <Text size="sm" c="dimmed">{current.live_tokens} live · last used {current.last_used_at ? formatTime(current.last_used_at) : 'never'}</Text>
        {current.active && (
          <form onSubmit={form.onSubmit((values) => issue.mutate({ name: values.name, expires_at: daysAhead(Number(values.days)) }, { onSuccess: (answer) => { form.reset(); setSecret(answer.data.token); toastDone(`The token ${answer.data.name} was issued.`); } }))}>
            <Group align="flex-end">
              <TextInput label="Token name" required {...form.getInputProps('name')} error={fieldError(issue.error, 'name')} />
              <NumberInput label="Valid for (days)" min={1} max={365} clampBehavior="none" required {...form.getInputProps('days')}
                error={Number(form.values.days) < 1 || Number(form.values.days) > 365 ? 'Between 1 and 365 days' : fieldError(issue.error, 'expires_at')} />
              <Button type="submit" loading={issue.isPending} disabled={Number(form.values.days) < 1 || Number(form.values.days) > 365}>Issue token</Button>
            </Group>
          </form>
        )}
        <ErrorDisplay error={issue.error ?? rotate.error ?? revoke.error} title="The token did not change" />
        <QueryState query={tokens}>
          {(list) => list.length === 0 ? <Empty title="No tokens yet" next="Issue one above; it is shown once." /> : (
            <Table.ScrollContainer minWidth={720}>
              <Table>
                <Table.Thead><Table.Tr><Table.Th>Name</Table.Th><Table.Th>Starts with</Table.Th><Table.Th>Status</Table.Th><Table.Th>Expires</Table.Th><Table.Th>Last used</Table.Th><Table.Th>Actions</Table.Th></Table.Tr></Table.Thead>
                <Table.Tbody>
                  {list.map((token) => (
                    <Table.Tr key={token.id}>
                      <Table.Td>{token.name}</Table.Td>
                      <Table.Td><Text size="sm" ff="monospace">{token.hint}…</Text></Table.Td>
                      <Table.Td><Badge color={TOKEN_COLORS[token.status] ?? 'gray'} variant="light">{token.status}</Badge></Table.Td>
                      <Table.Td>{formatTime(token.expires_at)}</Table.Td>
                      <Table.Td>{token.last_used_at ? `${formatTime(token.last_used_at)}${token.last_used_ip ? ` from ${token.last_used_ip}` : ''}` : 'Never'}</Table.Td>
                      <Table.Td>
                        {token.status === 'active' && (
                          <Group gap="xs" wrap="nowrap">
                            <ConfirmButton label="Rotate" color="orange" title={`Rotate the token ${token.name}?`}
                              onConfirm={() => rotate.mutate({ tokenId: token.id, body: { expires_at: daysAhead(90), overlap_hours: 24 } }, { onSuccess: (answer) => { setSecret(answer.data.token); toastDone(`${token.name} was rotated; the old token works 24 hours more.`); } })}>
                              A new token (valid 90 days) replaces it; the old one keeps working for 24 hours so the integration can switch.
                            </ConfirmButton>
                            <ConfirmButton label="Revoke" title={`Revoke the token ${token.name}?`}
                              onConfirm={() => revoke.mutate(token.id, { onSuccess: () => toastDone(`${token.name} was revoked.`) })}>
                              Calls with it are refused at once. This cannot be undone.
                            </ConfirmButton>
                          </Group>
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
      <SecretOnce title="The new token" secret={secret} onClose={() => setSecret(null)}>
        <Text size="sm">Send it as <Text span ff="monospace">Authorization: Bearer &lt;token&gt;</Text>.</Text>
      </SecretOnce>
    </Card>
  );
}

export function ServiceAccountsScreen() {
  const [includeInactive, setIncludeInactive] = useState(false);
  const accounts = useServiceAccounts(includeInactive);
  const entities = useLegalEntities();
  const create = useCreateServiceAccount();
  const update = useUpdateServiceAccount();
  const deactivate = useDeactivateServiceAccount();
  const [selected, setSelected] = useState<string | null>(null);
  const form = useForm<{ name: string; role: Role; entities: string[]; description: string }>({ initialValues: { name: '', role: 'reviewer', entities: [], description: '' } });
  const entityOptions = (entities.data ?? []).map((entity) => ({ value: entity.id, label: entity.name }));
  const err = (field: string) => fieldError(create.error, field);
  return (
    <>
      <ScreenTitle>Service accounts</ScreenTitle>
      <Stack>
        <Card withBorder>
          <form onSubmit={form.onSubmit((values) => create.mutate(
            { name: values.name, role: values.role, entity_assignments: values.entities.map((id) => ({ legal_entity_id: id })), ...(values.description.trim() ? { description: values.description.trim() } : {}) },
            { onSuccess: (answer) => { form.reset(); setSelected(answer.data.id); toastDone(`${answer.data.name} was created; issue it a token below.`); } },
          ))}>
            <Stack>
              <Title order={2} size="h4">New service account</Title>
              <SimpleGrid cols={{ base: 1, sm: 3 }}>
                <TextInput label="Name" required {...form.getInputProps('name')} error={err('name')} />
                <NativeSelect label="Role" data={ROLES} {...form.getInputProps('role')} error={err('role')} />
                <MultiSelect label="Legal entities" placeholder={form.values.role === 'admin' ? 'All (client admin)' : 'Choose the entities it may read'} data={entityOptions} {...form.getInputProps('entities')} error={err('entity_assignments')} />
              </SimpleGrid>
              <TextInput label="What the integration does" {...form.getInputProps('description')} error={err('description')} />
              <ErrorDisplay error={create.error} title="The service account was not created" />
              <Group justify="flex-end"><Button type="submit" loading={create.isPending}>Create service account</Button></Group>
            </Stack>
          </form>
        </Card>
        <Checkbox label="Show deactivated accounts" checked={includeInactive} onChange={(event) => setIncludeInactive(event.currentTarget.checked)} />
        <ErrorDisplay error={update.error ?? deactivate.error} title="The service account did not change" />
        <QueryState query={accounts}>
          {(list) => list.length === 0 ? <Empty title="No service accounts yet" next="Create one above for each system that calls the API." /> : (
            <Table.ScrollContainer minWidth={860}>
              <Table>
                <Table.Thead><Table.Tr><Table.Th>Name</Table.Th><Table.Th>Role</Table.Th><Table.Th>Legal entities</Table.Th><Table.Th>Live tokens</Table.Th><Table.Th>Actions</Table.Th></Table.Tr></Table.Thead>
                <Table.Tbody>
                  {list.map((account) => (
                    <Table.Tr key={account.id}>
                      <Table.Td><Text size="sm" fw={600}>{account.name}</Text>{!account.active && <Badge color="gray" variant="light">Deactivated</Badge>}</Table.Td>
                      <Table.Td>
                        <NativeSelect aria-label={`Role of ${account.name}`} size="xs" data={ROLES} value={account.role} disabled={!account.active}
                          onChange={(event) => { const role = event.currentTarget.value as Role; update.mutate({ id: account.id, body: { role } }, { onSuccess: () => toastDone(`${account.name} now acts as ${role}.`) }); }} />
                      </Table.Td>
                      <Table.Td><Text size="sm">{account.entity_assignments.length === 0 ? 'All (client admin) or none' : account.entity_assignments.map((a) => a.business_unit_name ? `${a.name} · ${a.business_unit_name}` : a.name).join(', ')}</Text></Table.Td>
                      <Table.Td>{account.live_tokens}</Table.Td>
                      <Table.Td>
                        <Group gap="xs" wrap="nowrap">
                          <Button size="xs" variant="light" onClick={() => setSelected(selected === account.id ? null : account.id)}>{selected === account.id ? 'Hide tokens' : 'Tokens'}</Button>
                          {account.active && (
                            <ConfirmButton label="Deactivate" title={`Deactivate ${account.name}?`}
                              onConfirm={() => deactivate.mutate(account.id, { onSuccess: () => toastDone(`${account.name} was deactivated and its tokens revoked.`) })}>
                              Every token of the account is revoked at once; its audit history stays.
                            </ConfirmButton>
                          )}
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </QueryState>
        {selected !== null && accounts.data?.some((account) => account.id === selected) && <Tokens key={selected} account={accounts.data.find((account) => account.id === selected)!} />}
      </Stack>
    </>
  );
}
