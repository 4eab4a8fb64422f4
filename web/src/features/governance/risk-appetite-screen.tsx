import { Badge, Button, Card, Group, NumberInput, Select, SimpleGrid, Stack, Table, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ErrorDisplay, fieldError } from '../../components/error-display';
import { riskLevelColor } from '../../components/level-colors';
import { Empty, QueryState, ScreenTitle } from '../../components/page-states';
import { formatTime } from '../../lib/format';
import { can } from '../../lib/permissions';
import { EntitySelect } from '../legal-entities/entity-select';
import { useLegalEntities } from '../legal-entities/api';
import { useCaller } from '../me/caller-context';
import { RISK_LEVELS, useAppetiteHistory, useDeleteAppetite, useRiskAppetites, useSetAppetite } from './api';

function SetAppetiteForm() {
  const set = useSetAppetite();
  const form = useForm({ initialValues: { legal_entity_id: null as string | null, risk_level: 'Medium', threshold_value: 9 as number | string, description: '', reason: '' } });
  const err = (field: string) => fieldError(set.error, field);
  return (
    <form
      onSubmit={form.onSubmit((values) =>
        set.mutate({
          legal_entity_id: values.legal_entity_id,
          risk_level: values.risk_level as never,
          threshold_value: Number(values.threshold_value),
          description: values.description.trim() === '' ? null : values.description,
          reason: values.reason.trim() === '' ? null : values.reason,
        }),
      )}
    >
      <Stack>
        <Title order={2} size="h4">Set an appetite</Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <EntitySelect label="Scope" allLabel="Enterprise default" value={form.values.legal_entity_id} onChange={(value) => form.setFieldValue('legal_entity_id', value)} />
          <Select label="Risk level" data={RISK_LEVELS} allowDeselect={false} {...form.getInputProps('risk_level')} error={err('risk_level')} />
          <NumberInput label="Threshold (highest acceptable score)" min={1} max={25} {...form.getInputProps('threshold_value')} error={err('threshold_value')} />
          <TextInput label="Rationale" {...form.getInputProps('description')} error={err('description')} />
          <TextInput label="Reason for the change" {...form.getInputProps('reason')} error={err('reason')} />
        </SimpleGrid>
        <ErrorDisplay error={set.error} title="The appetite was not saved" />
        <Group justify="flex-end">
          <Button type="submit" loading={set.isPending}>Save appetite</Button>
        </Group>
      </Stack>
    </form>
  );
}

export function RiskAppetiteScreen() {
  const caller = useCaller();
  const appetites = useRiskAppetites();
  const history = useAppetiteHistory();
  const entities = useLegalEntities();
  const remove = useDeleteAppetite();
  const scopeName = (entityId: string | null) => (entityId === null ? 'Enterprise default' : (entities.data?.find((entity) => entity.id === entityId)?.name ?? 'Legal entity'));
  return (
    <>
      <ScreenTitle>Risk appetite</ScreenTitle>
      <Stack>
        {can.setAppetite(caller) && <Card withBorder><SetAppetiteForm /></Card>}
        <Card withBorder>
          <Title order={2} size="h4" mb="sm">Per scope</Title>
          <ErrorDisplay error={remove.error} title="Not removed" />
          <QueryState query={appetites}>
            {(list) => (
              <Table.ScrollContainer minWidth={480}>
                <Table>
                  <Table.Thead>
                    <Table.Tr><Table.Th>Scope</Table.Th><Table.Th>Level</Table.Th><Table.Th>Threshold</Table.Th><Table.Th>Rationale</Table.Th>{can.setAppetite(caller) && <Table.Th>Remove</Table.Th>}</Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {list.map((appetite) => (
                      <Table.Tr key={appetite.id}>
                        <Table.Td>{scopeName(appetite.legal_entity_id)}</Table.Td>
                        <Table.Td><Badge color={riskLevelColor(appetite.risk_level)} variant="light">{appetite.risk_level}</Badge></Table.Td>
                        <Table.Td>{appetite.threshold_value}</Table.Td>
                        <Table.Td>{appetite.description ?? '–'}</Table.Td>
                        {can.setAppetite(caller) && (
                          <Table.Td>
                            {appetite.legal_entity_id !== null && (
                              <Button size="xs" variant="subtle" color="red" onClick={() => remove.mutate(appetite.id)} aria-label={`Remove the override of ${scopeName(appetite.legal_entity_id)}`}>Remove</Button>
                            )}
                          </Table.Td>
                        )}
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </QueryState>
        </Card>
        <Card withBorder>
          <Title order={2} size="h4" mb="sm">History</Title>
          <QueryState query={history}>
            {(answer) =>
              answer.data.length === 0 ? (
                <Empty title="No changes yet" next="Each change of an appetite is kept here with its reason." />
              ) : (
                <Table.ScrollContainer minWidth={480}>
                  <Table>
                    <Table.Thead>
                      <Table.Tr><Table.Th>When</Table.Th><Table.Th>Change</Table.Th><Table.Th>Reason</Table.Th></Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {answer.data.map((entry) => (
                        <Table.Tr key={entry.id}>
                          <Table.Td>{formatTime(entry.changed_at)}</Table.Td>
                          <Table.Td>{entry.previous_level ?? '–'} ({entry.previous_threshold ?? '–'}) → {entry.new_level} ({entry.new_threshold})</Table.Td>
                          <Table.Td>{entry.reason ?? '–'}</Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              )
            }
          </QueryState>
        </Card>
      </Stack>
    </>
  );
}
