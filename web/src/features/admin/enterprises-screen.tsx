import { Badge, Button, Card, Group, NativeSelect, SimpleGrid, Stack, Table, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { ConfirmButton, toastDone } from '../../components/confirm-button';
import { TIERS, useSetTier, type Tier } from '../platform/api';
import { HealthBadge, HealthDrawer } from '../platform/health-drawer';
import { ErrorDisplay, fieldError } from '../../components/error-display';
import { Empty, QueryState, ScreenTitle } from '../../components/page-states';
import { PagedTable } from '../../components/paged-table';
import { useCreateEnterprise, useEnterprises, useSetEnterpriseStatus } from './api';
import { SsoDomainsDrawer } from './enterprise-sso-domains';

export function EnterprisesScreen() {
  const [page, setPage] = useState(1);
  const enterprises = useEnterprises(page);
  const create = useCreateEnterprise();
  const setStatus = useSetEnterpriseStatus();
  const setTier = useSetTier();
  // ?health=<id> opens that enterprise's health: the link of an enterprise's alert lands here.
  const [params, setParams] = useSearchParams();
  const healthOf = params.get('health');
  // ?sso=<id> opens that enterprise's claimed SSO domains, where a super admin verifies one.
  const ssoOf = params.get('sso');
  const nameOf = (id: string | null) => enterprises.data?.data.find((enterprise) => enterprise.id === id)?.name ?? 'the enterprise';
  const form = useForm({ initialValues: { name: '', country: '', registration_number: '' } });
  const err = (field: string) => fieldError(create.error, field);
  return (
    <>
      <ScreenTitle>Enterprises</ScreenTitle>
      <Stack>
        <Card withBorder>
          <form onSubmit={form.onSubmit((values) => create.mutate({ ...values, country: values.country.trim().toUpperCase() as never }, { onSuccess: () => { form.reset(); toastDone(`${values.name} was created; add its client admin under Users.`); } }))}>
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
        <ErrorDisplay error={setTier.error} title="The tier did not change" />
        <HealthDrawer enterpriseId={healthOf} name={nameOf(healthOf)} onClose={() => setParams({})} />
        <SsoDomainsDrawer enterpriseId={ssoOf} name={nameOf(ssoOf)} onClose={() => setParams({})} />
        <QueryState query={enterprises}>
          {(answer) =>
            answer.data.length === 0 ? (
              <Empty title="No enterprises yet" next="Create the first one above, then add its client admin under Users." />
            ) : (
              <PagedTable minWidth={640} columns={['Name', 'Country', 'Tier', 'Users', 'BRAs', 'Health', 'Single sign-on', 'Status']} pagination={answer.pagination} onPage={setPage}>
                {answer.data.map((enterprise) => (
                  <Table.Tr key={enterprise.id}>
                    <Table.Td>{enterprise.name}</Table.Td>
                    <Table.Td>{enterprise.country}</Table.Td>
                    <Table.Td>
                      <NativeSelect aria-label={`Tier of ${enterprise.name}`} size="xs" data={TIERS} value={enterprise.subscription_tier}
                        onChange={(event) => { const tier = event.currentTarget.value as Tier; setTier.mutate({ id: enterprise.id, tier }, { onSuccess: () => toastDone(`${enterprise.name} is now on the ${tier} tier.`) }); }} />
                    </Table.Td>
                    <Table.Td>{enterprise.user_count}</Table.Td>
                    <Table.Td>{enterprise.bra_count}</Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <HealthBadge status={enterprise.health_status} score={enterprise.health_score} />
                        <Button size="xs" variant="subtle" aria-label={`Health of ${enterprise.name}`} onClick={() => setParams({ health: enterprise.id })}>Health</Button>
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <Button size="xs" variant="subtle" aria-label={`SSO domains of ${enterprise.name}`} onClick={() => setParams({ sso: enterprise.id })}>Domains</Button>
                    </Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Badge color={enterprise.status === 'active' ? 'green' : 'gray'} variant="light">{enterprise.status}</Badge>
                        {enterprise.status === 'active' ? (
                          <ConfirmButton label="Deactivate" title={`Deactivate ${enterprise.name}?`} variant="subtle"
                            onConfirm={() => setStatus.mutate({ id: enterprise.id, status: 'inactive' }, { onSuccess: () => toastDone(`${enterprise.name} was deactivated.`) })}>
                            Its members can no longer sign in until it is reactivated; its data stays.
                          </ConfirmButton>
                        ) : (
                          <Button size="xs" variant="subtle" onClick={() => setStatus.mutate({ id: enterprise.id, status: 'active' }, { onSuccess: () => toastDone(`${enterprise.name} was reactivated.`) })}>Reactivate</Button>
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </PagedTable>
            )
          }
        </QueryState>
      </Stack>
    </>
  );
}
