import { Alert, Button, Group, Select, Stack, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { DateField } from '../../components/date-field';
import { toastDone } from '../../components/confirm-button';
import { ErrorDisplay, fieldError } from '../../components/error-display';
import { TESTING_FREQUENCIES, TOD_LEVELS, TOE_LEVELS, useUpdateSubControl, type SubControlChange, type SubControlRead } from './api';

type Values = { tod: string | null; toe: string | null; testing_date: string | null; testing_frequency: string | null; tested_by: string; evidence_notes: string; tod_justification: string; toe_justification: string };

const valuesOf = (sub: SubControlRead): Values => ({
  tod: sub.tod,
  toe: sub.toe,
  testing_date: sub.testing_date,
  testing_frequency: sub.testing_frequency,
  tested_by: sub.tested_by ?? '',
  evidence_notes: sub.evidence_notes ?? '',
  tod_justification: sub.tod_justification ?? '',
  toe_justification: sub.toe_justification ?? '',
});

/**
 * A correction of the current result (PATCH): only the fields changed are sent, an emptied text clears it.
 * A form with nothing changed sends nothing and says so; only a stored change is confirmed. A change of
 * ToD, ToE or date joins the test history; a complete test is recorded with the test form instead.
 */
export function CurrentResultForm({ subControl }: { subControl: SubControlRead }) {
  const update = useUpdateSubControl();
  const initial = valuesOf(subControl);
  const form = useForm({ initialValues: initial });
  const [unchanged, setUnchanged] = useState(false);
  const submit = form.onSubmit((values) => {
    const changes = Object.fromEntries(
      (Object.keys(values) as (keyof Values)[])
        .filter((field) => values[field] !== initial[field])
        .map((field) => [field, typeof values[field] === 'string' && (values[field] as string).trim() === '' ? null : values[field]]),
    ) as SubControlChange;
    setUnchanged(Object.keys(changes).length === 0);
    if (Object.keys(changes).length === 0) return;
    update.mutate({ id: subControl.id, change: changes }, { onSuccess: (result) => toastDone(`Current result saved: ${result.total_effectiveness ?? 'not assessed'}.`) });
  });
  const err = (field: string) => fieldError(update.error, field);
  return (
    <form onSubmit={submit}>
      <Stack>
        <Select label="Test of Design" data={TOD_LEVELS} clearable {...form.getInputProps('tod')} error={err('tod')} />
        <Select label="Test of Effectiveness" data={TOE_LEVELS} clearable {...form.getInputProps('toe')} error={err('toe')} />
        <DateField label="Testing date" clearable {...form.getInputProps('testing_date')} error={err('testing_date')} />
        <Select label="Testing frequency" description="The next test is due this long after the last" placeholder="No schedule" data={TESTING_FREQUENCIES} clearable {...form.getInputProps('testing_frequency')} error={err('testing_frequency')} />
        <TextInput label="Tested by" {...form.getInputProps('tested_by')} error={err('tested_by')} />
        <Textarea label="Evidence notes" autosize minRows={2} {...form.getInputProps('evidence_notes')} error={err('evidence_notes')} />
        <Textarea label="Why this ToD" autosize minRows={1} {...form.getInputProps('tod_justification')} error={err('tod_justification')} />
        <Textarea label="Why this ToE" autosize minRows={1} {...form.getInputProps('toe_justification')} error={err('toe_justification')} />
        {unchanged && <Alert color="yellow" role="status">Nothing changed: nothing was saved.</Alert>}
        <ErrorDisplay error={update.error} title="The result was not saved" />
        <Group justify="flex-end">
          <Button type="submit" variant="default" loading={update.isPending}>Save current result</Button>
        </Group>
      </Stack>
    </form>
  );
}
