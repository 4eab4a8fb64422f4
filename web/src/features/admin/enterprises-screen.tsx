import { Badge, Button, Card, Group, SimpleGrid, Stack, Table, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { ErrorDisplay, fieldError } from '../../components/error-display';
import { Empty, Pager, QueryState, ScreenTitle } from '../../components/page-states';
import { useCreateEnterprise, useEnterprises, useSetEnterpriseStatus } from './api';

export function EnterprisesScreen() {
  const [page, setPage] = useState(1);
  const enterprises = useEnterprises(page);
  const create = useCreateEnterprise();
  const setStatus = useSetEnterpriseStatus();
  const form = useForm({ initialValues: { name: '', country: '', registration_number: '' } });
  const err = (field: string) => fieldError(create.error, field);
  return (
    <>
      <ScreenTitle>Enterprises</ScreenTitle>
      <Stack>
        <Card withBorder>
          <form onSubmit={form.onSubmit((values) => create.mutate({ ...values, country: values.country.trim().toUpperCase() as never }, { onSuccess: () => form.reset() }))}>
            <Stack>
              <Title order={2} size="h4">New enterprise</Title>
              <SimpleGrid cols={{ base: 1, sm: 3 }}>
                <TextInput label="Name" required {...form.getInputProps('name')} error={err('name')} />
                <TextInput label="Country (two letters)" required {...form.getInputProps('country')} error={err('country')} />
                <TextInput label="Registration number" required {...form.getInputProps('registration_number')} error={err('registration_number')} />
              </SimpleGrid>
              <ErrorDisplay error={create.error} title="The enterprise was not created" />
              <Group justify="flex-end"><Button type="submit" loading={create.isPending}>Create enterprise</Button></Group>
            </Stack>
          </form>
        </Card>
        <ErrorDisplay error={setStatus.error} title="The status did not change" />
        <QueryState query={enterprises}>
          {(answer) =>
            answer.data.length === 0 ? (
              <Empty title="No enterprises yet" next="Create the first one above, then add its client admin under Users." />
            ) : (
              <>
                <Table.ScrollContainer minWidth={640}>
                  <Table>
                    <Table.Thead>
                      <Table.Tr><Table.Th>Name</Table.Th><Table.Th>Country</Table.Th><Table.Th>Tier</Table.Th><Table.Th>Users</Table.Th><Table.Th>BRAs</Table.Th><Table.Th>Status</Table.Th></Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {answer.data.map((enterprise) => (
                        <Table.Tr key={enterprise.id}>
                          <Table.Td>{enterprise.name}</Table.Td>
                          <Table.Td>{enterprise.country}</Table.Td>
                          <Table.Td>{enterprise.subscription_tier}</Table.Td>
                          <Table.Td>{enterprise.user_count}</Table.Td>
                          <Table.Td>{enterprise.bra_count}</Table.Td>
                          <Table.Td>
                            <Group gap="xs" wrap="nowrap">
                              <Badge color={enterprise.status === 'active' ? 'green' : 'gray'} variant="light">{enterprise.status}</Badge>
                              <Button size="xs" variant="subtle" onClick={() => setStatus.mutate({ id: enterprise.id, status: enterprise.status === 'active' ? 'inactive' : 'active' })}>
                                {enterprise.status === 'active' ? 'Deactivate' : 'Reactivate'}
                              </Button>
                            </Group>
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
                <Pager pagination={answer.pagination} onChange={setPage} />
              </>
            )
          }
        </QueryState>
      </Stack>
    </>
  );
}
