import { Badge, Button, Card, Group, NumberInput, Select, SimpleGrid, Stack, Table, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ErrorDisplay, fieldError } from '../../components/error-display';
import { riskLevelColor } from '../../components/level-colors';
import { Empty, QueryState, ScreenTitle } from '../../components/page-states';
import { toast } from '../../components/toast';
import { formatTime } from '../../lib/format';
import { ConfirmButton } from '../../components/confirm-button';
import { EntitySelect } from '../legal-entities/entity-select';
import { useLegalEntities } from '../legal-entities/api';
import { useCaller } from '../me/caller-context';
import { scopeName } from './appetite-scope';
import { RISK_LEVELS, useAppetiteHistory, useDeleteAppetite, useRiskAppetites, useSetAppetite } from './api';

function SetAppetiteForm() {
  const set = useSetAppetite();
  const entities = useLegalEntities();
  const form = useForm({
    initialValues: { legal_entity_id: null as string | null, business_unit_id: null as string | null, risk_level: 'Medium', threshold_value: 9 as number | string, description: '', reason: '' },
    // Refused in the form, not clamped: a threshold is a risk score (impact × likelihood, 1 to 25).
    validate: { threshold_value: (value) => (Number.isInteger(Number(value)) && Number(value) >= 1 && Number(value) <= 25 ? null : 'A whole number from 1 to 25 (the highest acceptable risk score)') },
  });
  const err = (field: string) => fieldError(set.error, field);
  const units = entities.data?.find((entity) => entity.id === form.values.legal_entity_id)?.business_units.filter((unit) => unit.archived_at === null) ?? [];
  return (
    <form
      onSubmit={form.onSubmit((values) =>
        set.mutate(
          {
          legal_entity_id: values.legal_entity_id,
          business_unit_id: values.legal_entity_id === null ? null : values.business_unit_id,
          risk_level: values.risk_level as never,
          threshold_value: Number(values.threshold_value),
          description: values.description.trim() === '' ? null : values.description,
          reason: values.reason.trim() === '' ? null : values.reason,
          },
          { onSuccess: () => toast({ title: 'Appetite saved', message: `${scopeName(entities.data, { legal_entity_id: values.legal_entity_id, business_unit_id: values.legal_entity_id === null ? null : values.business_unit_id })}: ${values.risk_level}, threshold ${values.threshold_value}.` }) },
        ),
      )}
    >
      <Stack>
        <Title order={2} size="h4">Set an appetite</Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <EntitySelect label="Legal entity" allLabel="Enterprise default" value={form.values.legal_entity_id} onChange={(value) => { form.setFieldValue('legal_entity_id', value); form.setFieldValue('business_unit_id', null); }} />
          <Select
            label="Business unit"
            placeholder={form.values.legal_entity_id === null ? 'Choose a legal entity first' : 'The whole entity'}
            data={units.map((unit) => ({ value: unit.id, label: unit.name }))}
            value={form.values.business_unit_id}
            onChange={(value) => form.setFieldValue('business_unit_id', value)}
            disabled={form.values.legal_entity_id === null || units.length === 0}
            clearable
            error={err('business_unit_id')}
          />
          <Select label="Risk level" data={RISK_LEVELS} allowDeselect={false} {...form.getInputProps('risk_level')} error={err('risk_level')} />
          <NumberInput label="Threshold (highest acceptable score, 1–25)" min={1} max={25} clampBehavior="none" allowDecimal={false} {...form.getInputProps('threshold_value')} error={form.errors.threshold_value ?? err('threshold_value')} />
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
  const nameOf = (scope: { legal_entity_id: string | null; business_unit_id: string | null }) => scopeName(entities.data, scope);
  return (
    <>
      <ScreenTitle>Risk appetite</ScreenTitle>
      <Stack>
        {caller.abilities.set_appetite && <Card withBorder><SetAppetiteForm /></Card>}
        <Card withBorder>
          <Title order={2} size="h4" mb="sm">Per scope</Title>
          <ErrorDisplay error={remove.error} title="Not removed" />
          <QueryState query={appetites}>
            {(list) => (
              <Table.ScrollContainer minWidth={480}>
                <Table>
                  <Table.Thead>
                    <Table.Tr><Table.Th>Scope</Table.Th><Table.Th>Level</Table.Th><Table.Th>Threshold</Table.Th><Table.Th>Rationale</Table.Th>{caller.abilities.set_appetite && <Table.Th>Remove</Table.Th>}</Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {list.map((appetite) => (
                      <Table.Tr key={appetite.id}>
                        <Table.Td>{nameOf(appetite)}</Table.Td>
                        <Table.Td><Badge color={riskLevelColor(appetite.risk_level)} variant="light">{appetite.risk_level}</Badge></Table.Td>
                        <Table.Td>{appetite.threshold_value}</Table.Td>
                        <Table.Td>{appetite.description ?? '–'}</Table.Td>
                        {caller.abilities.set_appetite && (
                          <Table.Td>
                            {appetite.legal_entity_id !== null && (
                              <ConfirmButton
                                label="Remove"
                                title={`Remove the override of ${nameOf(appetite)}?`}
                                aria-label={`Remove the override of ${nameOf(appetite)}`}
                                loading={remove.isPending && remove.variables === appetite.id}
                                onConfirm={() => remove.mutate(appetite.id, { onSuccess: () => toast({ title: 'Override removed', message: `${nameOf(appetite)} now follows the wider scope's appetite.` }) })}
                              >
                                Its BRAs will be judged against the wider scope's appetite from now on; approved BRAs keep the appetite they were approved under.
                              </ConfirmButton>
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
                      <Table.Tr><Table.Th>When</Table.Th><Table.Th>Scope</Table.Th><Table.Th>Who</Table.Th><Table.Th>Change</Table.Th><Table.Th>Reason</Table.Th></Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {answer.data.map((entry) => (
                        <Table.Tr key={entry.id}>
                          <Table.Td>{formatTime(entry.changed_at)}</Table.Td>
                          <Table.Td>{nameOf(entry)}</Table.Td>
                          <Table.Td>{entry.changed_by_name ?? '–'}</Table.Td>
                          <Table.Td>{entry.previous_level === null ? 'Set' : `${entry.previous_level} (${entry.previous_threshold})`} → {entry.new_level === null ? 'removed' : `${entry.new_level} (${entry.new_threshold})`}</Table.Td>
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
