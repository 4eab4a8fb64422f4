import { Badge, Button, Card, Group, NativeSelect, Select, SimpleGrid, Stack, Switch, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { ErrorDisplay, fieldError } from '../../components/error-display';
import { ApiError } from '../../lib/api-error';
import { Empty, QueryState, ScreenTitle } from '../../components/page-states';
import { WHOLE_BADGE } from '../../components/level-colors';
import { toast } from '../../components/toast';
import { formatTime } from '../../lib/format';
import { useCaller } from '../me/caller-context';
import { useAddUser, useChangeRole, useDeactivateUser, useEnterpriseUsers, useEnterprises, useReactivateUser, useResendInvitation, type EnterpriseUser, type MemberRole as Role } from './api';
import { EntityAccess } from './entity-access';
import { InvitationStatus } from './invitation-status';
import { MemberActions, type MemberCalls } from './member-actions';
import { MemberRole, ROLES, roleLabel } from './member-role';

/** What each field of the invitation needs, said as a person would (the service's own text is under the form). */
const IN_WORDS = {
  email: 'Enter a whole e-mail address, like dana.lee@example.com.',
  full_name: "Enter the person's full name (at most 200 characters).",
  role: 'Choose one of the roles offered.',
};

function AddUserForm({ enterpriseId }: { enterpriseId: string }) {
  const caller = useCaller();
  const add = useAddUser(enterpriseId);
  const form = useForm({ initialValues: { email: '', full_name: '', role: 'assessor' } });
  // The roles the caller may give, as the service's admin policy lists them on /me.
  const roles = ROLES.filter((role) => caller.grantable_roles.includes(role.value));
  const err = (field: keyof typeof IN_WORDS) => {
    // A taken address is a 409 on the whole request, but it is the e-mail field the person corrects.
    if (field === 'email' && add.error instanceof ApiError && add.error.code === 'CONFLICT') return 'Someone active already has this e-mail address.';
    return fieldError(add.error, field) === undefined ? undefined : IN_WORDS[field];
  };
  const submit = form.onSubmit((values) =>
    add.mutate(
      { ...values, role: values.role as Role },
      {
        onSuccess: (answer) => {
          toast({ title: 'User invited', message: `${answer.data.full_name} was invited as ${roleLabel(answer.data.role).toLowerCase()}.` });
          form.reset();
        },
      },
    ),
  );
  return (
    <form onSubmit={submit}>
      <Stack>
        <Title order={2} size="h4">Invite a user</Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput label="E-mail" type="email" required {...form.getInputProps('email')} error={err('email')} />
          <TextInput label="Full name" required {...form.getInputProps('full_name')} error={err('full_name')} />
          <NativeSelect label="Role" data={roles} {...form.getInputProps('role')} error={err('role')} />
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

type SortKey = 'name' | 'role' | 'newest';

/** Past 20 members a table wants finding and ordering: by name or e-mail, sorted by name, role or newest. */
const SEARCH_FROM = 20;

function visibleMembers(list: EnterpriseUser[], search: string, sort: SortKey): EnterpriseUser[] {
  const needle = search.trim().toLowerCase();
  const found = needle === '' ? list : list.filter((user) => user.full_name.toLowerCase().includes(needle) || user.email.toLowerCase().includes(needle));
  if (sort === 'newest') return found;
  const key = (user: EnterpriseUser) => (sort === 'name' ? user.full_name : `${roleLabel(user.role)} ${user.full_name}`);
  return [...found].sort((a, b) => key(a).localeCompare(key(b)));
}

function UsersOf({ enterpriseId }: { enterpriseId: string }) {
  const [includeInactive, setIncludeInactive] = useState(false);
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<SortKey>('newest');
  const users = useEnterpriseUsers(enterpriseId, includeInactive);
  const deactivate = useDeactivateUser(enterpriseId);
  const resend = useResendInvitation(enterpriseId);
  const reactivate = useReactivateUser(enterpriseId);
  const changeRole = useChangeRole(enterpriseId);
  const calls: MemberCalls = {
    resend: (user) => resend.mutate(user.user_id, { onSuccess: (answer) => toast({ title: 'Invitation sent', message: `${user.full_name} has a new link until ${formatTime(answer.data.invitation.expires_at)}.` }) }),
    reactivate: (user) => reactivate.mutate(user.user_id, { onSuccess: () => toast({ title: 'User reactivated', message: `${user.full_name} is active again.` }) }),
    deactivate: (user) => deactivate.mutate(user.user_id, { onSuccess: () => toast({ title: 'User deactivated', message: `${user.full_name} can no longer sign in.` }) }),
  };
  const setRole = (user: EnterpriseUser, role: Role) =>
    changeRole.mutate(
      { userId: user.user_id, role },
      { onSuccess: () => toast({ title: 'Role changed', message: `${user.full_name} is now ${roleLabel(role).toLowerCase()}.` }) },
    );
  return (
    <Stack>
      <Card withBorder><AddUserForm enterpriseId={enterpriseId} /></Card>
      <ErrorDisplay error={deactivate.error} title="Not deactivated" />
      <ErrorDisplay error={resend.error} title="The invitation was not sent" />
      <ErrorDisplay error={reactivate.error} title="Not reactivated" />
      <ErrorDisplay error={changeRole.error} title="The role was not changed" />
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
            <Stack>
              {list.length > SEARCH_FROM && (
                <Group align="flex-end">
                  <TextInput label="Find a user" placeholder="Name or e-mail" value={search} onChange={(event) => setSearch(event.currentTarget.value)} />
                  <NativeSelect
                    label="Sort by"
                    data={[{ value: 'newest', label: 'Newest first' }, { value: 'name', label: 'Name' }, { value: 'role', label: 'Role' }]}
                    value={sort}
                    onChange={(event) => setSort(event.currentTarget.value as SortKey)}
                  />
                </Group>
              )}
              <Table.ScrollContainer minWidth={1100}>
                <Table>
                  <Table.Thead>
                    <Table.Tr><Table.Th>Name</Table.Th><Table.Th>E-mail</Table.Th><Table.Th>Role</Table.Th><Table.Th>Joining</Table.Th><Table.Th>Entity access</Table.Th><Table.Th>Change</Table.Th></Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {visibleMembers(list, search, sort).map((user) => (
                      <Table.Tr key={user.id} data-testid="user-row">
                        <Table.Td>
                          {user.full_name}
                          {!user.active && <Badge ml="xs" color="gray" variant="outline" tt="none" style={WHOLE_BADGE}>Deactivated</Badge>}
                        </Table.Td>
                        <Table.Td>{user.email}</Table.Td>
                        <Table.Td><MemberRole user={user} pending={changeRole.isPending} onChange={(role) => setRole(user, role)} /></Table.Td>
                        <Table.Td><InvitationStatus invitation={user.invitation} lastLogin={user.last_login} /></Table.Td>
                        <Table.Td><EntityAccess enterpriseId={enterpriseId} user={user} /></Table.Td>
                        <Table.Td><MemberActions user={user} calls={calls} /></Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            </Stack>
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
