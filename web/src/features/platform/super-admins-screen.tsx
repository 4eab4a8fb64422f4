import { Badge, Button, Card, Group, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ErrorDisplay, fieldError } from '../../components/error-display';
import { QueryState, ScreenTitle } from '../../components/page-states';
import { formatTime } from '../../lib/format';
import { useCaller } from '../me/caller-context';
import { ConfirmButton, toastDone } from '../../components/confirm-button';
import { useAddSuperAdmin, useRemoveSuperAdmin, useSuperAdmins } from './api';

export function SuperAdminsScreen() {
  const caller = useCaller();
  const admins = useSuperAdmins();
  const add = useAddSuperAdmin();
  const remove = useRemoveSuperAdmin();
  const form = useForm({ initialValues: { email: '', full_name: '' } });
  const err = (field: string) => fieldError(add.error, field);
  return (
    <>
      <ScreenTitle>Super admins</ScreenTitle>
      <Stack>
        <Card withBorder>
          <form onSubmit={form.onSubmit((values) => add.mutate(values, { onSuccess: (answer) => { form.reset(); toastDone(answer.data.invitation ? `${values.full_name} was invited by mail as a super admin.` : `${values.full_name} is now a super admin.`); } }))}>
            <Stack>
              <Title order={2} size="h4">Add a super admin</Title>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput label="E-mail" type="email" required {...form.getInputProps('email')} error={err('email')} />
                <TextInput label="Full name" required {...form.getInputProps('full_name')} error={err('full_name')} />
              </SimpleGrid>
              <Text size="sm" c="dimmed">A new person receives an invitation mail to set a password; a member of an enterprise cannot be a super admin.</Text>
              <ErrorDisplay error={add.error} title="The super admin was not added" />
              <Group justify="flex-end"><Button type="submit" loading={add.isPending}>Add super admin</Button></Group>
            </Stack>
          </form>
        </Card>
        <ErrorDisplay error={remove.error} title="The super admin was not removed" />
        <QueryState query={admins}>
          {(list) => {
            const last = list.length <= 1;
            return (
              <Stack gap="xs">
                {last && <Text size="sm" role="note">The platform always keeps one super admin: add another before removing this one.</Text>}
                <Table.ScrollContainer minWidth={640}>
                  <Table>
                    <Table.Thead><Table.Tr><Table.Th>Name</Table.Th><Table.Th>E-mail</Table.Th><Table.Th>Last sign-in</Table.Th><Table.Th>Remove</Table.Th></Table.Tr></Table.Thead>
                    <Table.Tbody>
                      {list.map((admin) => (
                        <Table.Tr key={admin.user_id}>
                          <Table.Td>{admin.full_name}{admin.user_id === caller.user_id ? ' (you)' : ''}</Table.Td>
                          <Table.Td>{admin.email}</Table.Td>
                          <Table.Td>{admin.has_password ? formatTime(admin.last_login) : <Badge variant="light" color="gray">Invited, not yet joined</Badge>}</Table.Td>
                          <Table.Td>
                            {last ? (
                              <Text size="sm" c="dimmed">The last one stays</Text>
                            ) : (
                              <ConfirmButton label="Remove" title={`Remove ${admin.full_name} as super admin?`} loading={remove.isPending && remove.variables === admin.user_id}
                                onConfirm={() => remove.mutate(admin.user_id, { onSuccess: () => toastDone(`${admin.full_name} is no longer a super admin.`) })}>
                                {admin.user_id === caller.user_id ? 'You will lose access to the platform screens at once. ' : ''}The person keeps their account and history, without the super admin role.
                              </ConfirmButton>
                            )}
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              </Stack>
            );
          }}
        </QueryState>
      </Stack>
    </>
  );
}
