import { Badge, Button, Card, Group, Select, SimpleGrid, Stack, Switch, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { ErrorDisplay, fieldError } from '../../components/error-display';
import { Empty, QueryState, ScreenTitle } from '../../components/page-states';
import { WHOLE_BADGE } from '../../components/level-colors';
import { formatTime } from '../../lib/format';
import { useLegalEntities } from '../legal-entities/api';
import { useCaller } from '../me/caller-context';
import { useAddUser, useDeactivateUser, useEnterpriseUsers, useEnterprises, useGrantEntity, useReactivateUser, useResendInvitation, type EnterpriseUser } from './api';
import { InvitationStatus } from './invitation-status';
import { MemberActions, type MemberCalls } from './member-actions';

const ROLES = [
  { value: 'assessor', label: 'Assessor' },
  { value: 'reviewer', label: 'Reviewer' },
  { value: 'admin', label: 'Client admin' },
];

function AddUserForm({ enterpriseId }: { enterpriseId: string }) {
  const caller = useCaller();
  const add = useAddUser(enterpriseId);
  const form = useForm({ initialValues: { email: '', full_name: '', role: 'assessor' } });
  // The roles the caller may give, as the service's admin policy lists them on /me.
  const roles = ROLES.filter((role) => caller.grantable_roles.includes(role.value));
  const err = (field: string) => fieldError(add.error, field);
  return (
    <form onSubmit={form.onSubmit((values) => add.mutate({ ...values, role: values.role as never }, { onSuccess: () => form.reset() }))}>
      <Stack>
        <Title order={2} size="h4">Invite a user</Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput label="E-mail" type="email" required {...form.getInputProps('email')} error={err('email')} />
          <TextInput label="Full name" required {...form.getInputProps('full_name')} error={err('full_name')} />
          <Select label="Role" data={roles} allowDeselect={false} {...form.getInputProps('role')} error={err('role')} />
        </SimpleGrid>
        <ErrorDisplay error={add.error} title="The user was not added" />
        {add.data && (
          <Text size="sm" role="status" data-testid="invited">
            Invited {add.data.data.email}: the link to set a password works until {formatTime(add.data.data.invitation.expires_at)}.
          </Text>
        )}
        <Group justify="flex-end"><Button type="submit" loading={add.isPending}>Invite user</Button></Group>
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
  const [includeInactive, setIncludeInactive] = useState(false);
  const users = useEnterpriseUsers(enterpriseId, includeInactive);
  const deactivate = useDeactivateUser(enterpriseId);
  const resend = useResendInvitation(enterpriseId);
  const reactivate = useReactivateUser(enterpriseId);
  const calls: MemberCalls = {
    resend: (user) => resend.mutate(user.user_id),
    reactivate: (user) => reactivate.mutate(user.user_id),
    deactivate: (user) => deactivate.mutate(user.user_id),
  };
  return (
    <Stack>
      <Card withBorder><AddUserForm enterpriseId={enterpriseId} /></Card>
      <ErrorDisplay error={deactivate.error} title="Not deactivated" />
      <ErrorDisplay error={resend.error} title="The invitation was not sent" />
      <ErrorDisplay error={reactivate.error} title="Not reactivated" />
      {resend.data && (
        <Text size="sm" role="status" data-testid="invitation-resent">
          Invitation sent again to {resend.data.data.email}; the new link works until {formatTime(resend.data.data.invitation.expires_at)}.
        </Text>
      )}
      {reactivate.data && <Text size="sm" role="status">{reactivate.data.data.full_name} is active again.</Text>}
      <Switch label="Show deactivated users" checked={includeInactive} onChange={(event) => setIncludeInactive(event.currentTarget.checked)} />
      <QueryState query={users}>
        {(list) =>
          list.length === 0 ? (
            <Empty title="No users yet" next="Invite the first one above." />
          ) : (
            <Table.ScrollContainer minWidth={1100}>
              <Table>
                <Table.Thead>
                  <Table.Tr><Table.Th>Name</Table.Th><Table.Th>E-mail</Table.Th><Table.Th>Role</Table.Th><Table.Th>Invitation</Table.Th><Table.Th>Entity access</Table.Th><Table.Th>Change</Table.Th></Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {list.map((user) => (
                    <Table.Tr key={user.id} data-testid="user-row">
                      <Table.Td>
                        {user.full_name}
                        {!user.active && <Badge ml="xs" color="gray" variant="outline" tt="none" style={WHOLE_BADGE}>Deactivated</Badge>}
                      </Table.Td>
                      <Table.Td>{user.email}</Table.Td>
                      <Table.Td><Badge variant="light" tt="none" style={WHOLE_BADGE}>{ROLES.find((role) => role.value === user.role)?.label ?? user.role}</Badge></Table.Td>
                      <Table.Td><InvitationStatus invitation={user.invitation} /></Table.Td>
                      <Table.Td>{(user.entity_assignments ?? []).map((assignment) => assignment.name).join(', ') || '–'}</Table.Td>
                      <Table.Td>
                        <Group gap="xs" wrap="nowrap">
                          {user.active && <GrantEntity enterpriseId={enterpriseId} user={user} />}
                          <MemberActions user={user} calls={calls} />
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
  const platform = caller.abilities.administer_platform;
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
