import { Button, Group, Select, SimpleGrid, Stack, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { DateField } from '../../components/date-field';
import { toastDone } from '../../components/confirm-button';
import { ErrorDisplay, fieldError } from '../../components/error-display';
import { TOD_LEVELS, TOE_LEVELS, useRecordTest, type CompleteTest } from './api';

const blankToNull = (text: string) => (text.trim() === '' ? null : text);

/**
 * One complete test of a sub-control: ToD and ToE with why, when, who and the evidence. Everything the
 * service requires is sent as typed, so an incomplete form comes back with the service's field errors
 * beside each field and nothing is stored; only a stored test is confirmed.
 */
export function CompleteTestForm({ subControlId, testerName, onRecorded }: { subControlId: string; testerName: string; onRecorded?: () => void }) {
  const record = useRecordTest(subControlId);
  const form = useForm({
    initialValues: { tod: null as string | null, toe: null as string | null, testing_date: null as string | null, tested_by: testerName, evidence_notes: '', tod_justification: '', toe_justification: '' },
  });
  const submit = form.onSubmit((values) =>
    record.mutate(
      {
        tod: values.tod,
        toe: values.toe,
        testing_date: values.testing_date,
        tested_by: values.tested_by,
        evidence_notes: values.evidence_notes,
        tod_justification: blankToNull(values.tod_justification),
        toe_justification: blankToNull(values.toe_justification),
      } as unknown as CompleteTest,
      {
        onSuccess: (test) => {
          form.reset();
          toastDone(`Test recorded: ${test.total_effectiveness ?? 'not assessed'}.`);
          onRecorded?.();
        },
      },
    ),
  );
  const err = (field: string) => fieldError(record.error, field);
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select label="Test of Design" data={TOD_LEVELS} required {...form.getInputProps('tod')} error={err('tod')} />
          <Select label="Test of Effectiveness" data={TOE_LEVELS} required {...form.getInputProps('toe')} error={err('toe')} />
          <Textarea label="Why this ToD" autosize minRows={2} {...form.getInputProps('tod_justification')} error={err('tod_justification')} />
          <Textarea label="Why this ToE" autosize minRows={2} {...form.getInputProps('toe_justification')} error={err('toe_justification')} />
          <DateField label="Testing date" required {...form.getInputProps('testing_date')} error={err('testing_date')} />
          <TextInput label="Tested by" required {...form.getInputProps('tested_by')} error={err('tested_by')} />
        </SimpleGrid>
        <Textarea label="Evidence notes" required autosize minRows={2} {...form.getInputProps('evidence_notes')} error={err('evidence_notes')} />
        <ErrorDisplay error={record.error} title="The test was not recorded" />
        <Group justify="flex-end">
          <Button type="submit" loading={record.isPending}>Record test</Button>
        </Group>
      </Stack>
    </form>
  );
}
