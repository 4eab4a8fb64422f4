import { Alert, Button, Group, Select, Stack, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ErrorDisplay, fieldError } from '../../components/error-display';
import { TOD_LEVELS, TOE_LEVELS, useUpdateSubControl, type NestedSubControl } from './api';
import { DateField } from '../../components/date-field';

/** ToD/ToE entry for one sub-control; the resulting effectiveness is the service's answer. */
export function RecordTestForm({ subControl }: { subControl: NestedSubControl }) {
  const update = useUpdateSubControl();
  const form = useForm({
    initialValues: { tod: subControl.tod as string | null, toe: subControl.toe as string | null, testing_date: null as string | null, tested_by: '', evidence_notes: '' },
  });
  const submit = form.onSubmit((values) =>
    update.mutate({
      id: subControl.id,
      change: {
        tod: values.tod as never,
        toe: values.toe as never,
        testing_date: values.testing_date,
        tested_by: values.tested_by.trim() === '' ? null : values.tested_by,
        evidence_notes: values.evidence_notes.trim() === '' ? null : values.evidence_notes,
      },
    }),
  );
  const err = (field: string) => fieldError(update.error, field);
  return (
    <form onSubmit={submit}>
      <Stack>
        <Select label="Test of Design" data={TOD_LEVELS} clearable {...form.getInputProps('tod')} error={err('tod')} />
        <Select label="Test of Effectiveness" data={TOE_LEVELS} clearable {...form.getInputProps('toe')} error={err('toe')} />
        <DateField label="Testing date" clearable {...form.getInputProps('testing_date')} error={err('testing_date')} />
        <TextInput label="Tested by" {...form.getInputProps('tested_by')} error={err('tested_by')} />
        <Textarea label="Evidence notes" autosize minRows={2} {...form.getInputProps('evidence_notes')} error={err('evidence_notes')} />
        <ErrorDisplay error={update.error} title="The test was not recorded" />
        {update.data && (
          <Alert color="green" data-testid="resulting-effectiveness">
            Recorded. Total effectiveness: {update.data.total_effectiveness ?? 'not assessed (ToD or ToE unset)'}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button type="submit" loading={update.isPending}>
            Record test
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
