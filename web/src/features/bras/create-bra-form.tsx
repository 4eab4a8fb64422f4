import { Button, Group, Stack, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ErrorDisplay, fieldError } from '../../components/error-display';
import { EntitySelect } from '../legal-entities/entity-select';
import { useCreateBra } from './api';
import { DateField } from '../../components/date-field';

/** A new BRA; the service checks the name, the entity and the caller's assignment, and says why not. */
export function CreateBraForm({ onCreated, assessorName }: { onCreated: (id: string) => void; assessorName: string }) {
  const create = useCreateBra();
  const form = useForm({
    initialValues: { name: '', description: '', legal_entity_id: null as string | null, period: '', assessor: assessorName, start_date: null as string | null },
  });
  const submit = form.onSubmit((values) =>
    create.mutate(
      {
        name: values.name,
        description: values.description.trim() === '' ? null : values.description,
        legal_entity_id: values.legal_entity_id ?? '',
        period: values.period,
        assessor: values.assessor,
        start_date: values.start_date,
      },
      { onSuccess: (bra) => onCreated(bra.id) },
    ),
  );
  const err = (field: string) => fieldError(create.error, field);
  return (
    <form onSubmit={submit}>
      <Stack>
        <TextInput label="Name" required {...form.getInputProps('name')} error={err('name')} />
        <EntitySelect label="Legal entity" required value={form.values.legal_entity_id} onChange={(value) => form.setFieldValue('legal_entity_id', value)} />
        <TextInput label="Period" placeholder="FY2026" required {...form.getInputProps('period')} error={err('period')} />
        <TextInput label="Assessor" required {...form.getInputProps('assessor')} error={err('assessor')} />
        <DateField label="Start date" clearable {...form.getInputProps('start_date')} error={err('start_date')} />
        <Textarea label="Description" autosize minRows={2} {...form.getInputProps('description')} error={err('description')} />
        <ErrorDisplay error={create.error} title="The BRA was not created" />
        <Group justify="flex-end">
          <Button type="submit" loading={create.isPending}>
            Create BRA
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
