import { Badge, Button, Card, Group, Select, SimpleGrid, Stack, Table, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { ErrorDisplay, fieldError } from '../../components/error-display';
import { Empty, QueryState, ScreenTitle } from '../../components/page-states';
import { can } from '../../lib/permissions';
import { useLegalEntities } from '../legal-entities/api';
import { useCaller } from '../me/caller-context';
import { useAddUser, useDeactivateUser, useEnterpriseUsers, useEnterprises, useGrantEntity, type EnterpriseUser } from './api';

const ROLES = [
  { value: 'assessor', label: 'Assessor' },
  { value: 'reviewer', label: 'Reviewer' },
  { value: 'admin', label: 'Client admin' },
];

function AddUserForm({ enterpriseId }: { enterpriseId: string }) {
  const caller = useCaller();
  const add = useAddUser(enterpriseId);
  const form = useForm({ initialValues: { email: '', full_name: '', role: 'assessor' } });
  // A client admin adds assessors and reviewers (D5); a super admin any role.
  const roles = can.administerPlatform(caller) ? ROLES : ROLES.filter((role) => role.value !== 'admin');
  const err = (field: string) => fieldError(add.error, field);
  return (
    <form onSubmit={form.onSubmit((values) => add.mutate({ ...values, role: values.role as never }, { onSuccess: () => form.reset() }))}>
      <Stack>
        <Title order={2} size="h4">Add a user</Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput label="E-mail" type="email" required {...form.getInputProps('email')} error={err('email')} />
          <TextInput label="Full name" required {...form.getInputProps('full_name')} error={err('full_name')} />
          <Select label="Role" data={roles} allowDeselect={false} {...form.getInputProps('role')} error={err('role')} />
        </SimpleGrid>
        <ErrorDisplay error={add.error} title="The user was not added" />
        <Group justify="flex-end"><Button type="submit" loading={add.isPending}>Add user</Button></Group>
      </Stack>
    </form>
  );
}

function GrantEntity({ enterpriseId, user }: { enterpriseId: string; user: EnterpriseUser }) {
  const caller = useCaller();
  const entities = useLegalEntities(caller.role === 'admin');
  const grant = useGrantEntity(enterpriseId);
  const [entity, setEntity] = useState<string | null>(null);
  if (caller.role !== 'admin') return null;
  return (
    <Group gap="xs" wrap="nowrap">
      <Select aria-label={`Legal entity to give ${user.full_name}`} placeholder="Give access to…" size="xs" data={(entities.data ?? []).map((e) => ({ value: e.id, label: e.name }))} value={entity} onChange={setEntity} />
      <Button size="xs" variant="light" disabled={entity === null} loading={grant.isPending} onClick={() => entity && grant.mutate({ userId: user.user_id, legalEntityId: entity }, { onSuccess: () => setEntity(null) })}>Grant</Button>
      {grant.error ? <ErrorDisplay error={grant.error} title="Not granted" /> : null}
    </Group>
  );
}

function UsersOf({ enterpriseId }: { enterpriseId: string }) {
  const users = useEnterpriseUsers(enterpriseId);
  const deactivate = useDeactivateUser(enterpriseId);
  return (
    <Stack>
      <Card withBorder><AddUserForm enterpriseId={enterpriseId} /></Card>
      <ErrorDisplay error={deactivate.error} title="Not deactivated" />
      <QueryState query={users}>
        {(list) =>
          list.length === 0 ? (
            <Empty title="No users yet" next="Add the first one above." />
          ) : (
            <Table.ScrollContainer minWidth={720}>
              <Table>
                <Table.Thead>
                  <Table.Tr><Table.Th>Name</Table.Th><Table.Th>E-mail</Table.Th><Table.Th>Role</Table.Th><Table.Th>Entity access</Table.Th><Table.Th>Change</Table.Th></Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {list.map((user) => (
                    <Table.Tr key={user.id}>
                      <Table.Td>{user.full_name}</Table.Td>
                      <Table.Td>{user.email}</Table.Td>
                      <Table.Td><Badge variant="light">{ROLES.find((role) => role.value === user.role)?.label ?? user.role}</Badge></Table.Td>
                      <Table.Td>{(user.entity_assignments ?? []).map((assignment) => assignment.name).join(', ') || '–'}</Table.Td>
                      <Table.Td>
                        <Group gap="xs" wrap="nowrap">
                          <GrantEntity enterpriseId={enterpriseId} user={user} />
                          <Button size="xs" variant="subtle" color="red" onClick={() => deactivate.mutate(user.user_id)} aria-label={`Deactivate ${user.full_name}`}>Deactivate</Button>
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )
        }
      </QueryState>
    </Stack>
  );
}

export function UsersScreen() {
  const caller = useCaller();
  const platform = can.administerPlatform(caller);
  const enterprises = useEnterprises(1, platform);
  const [chosen, setChosen] = useState<string | null>(null);
  const enterpriseId = platform ? chosen : caller.enterprise_id;
  return (
    <>
      <ScreenTitle
        actions={platform && (
          <Select label="Enterprise" placeholder="Choose an enterprise" searchable data={(enterprises.data?.data ?? []).map((e) => ({ value: e.id, label: e.name }))} value={chosen} onChange={setChosen} />
        )}
      >
        Users
      </ScreenTitle>
      {enterpriseId ? <UsersOf enterpriseId={enterpriseId} /> : <Empty title="Choose an enterprise" next="Its users and their entity access appear here." />}
    </>
  );
}
