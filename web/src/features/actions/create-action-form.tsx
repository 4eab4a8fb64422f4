import { Button, Group, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { toastDone } from '../../components/confirm-button';
import { DateField } from '../../components/date-field';
import { ErrorDisplay, fieldError } from '../../components/error-display';
import { useBra, useBras } from '../bras/api';
import { PRIORITIES, useCreateAction } from './api';
import { MemberPicker } from './member-picker';

/** The scenarios of the BRA chosen, to treat one of them; none until a BRA is chosen. */
function ScenarioSelect({ braId, value, onChange, error }: { braId: string | null; value: string | null; onChange: (value: string | null) => void; error?: string | undefined }) {
  const bra = useBra(braId ?? '');
  const options = braId === null ? [] : (bra.data?.scenarios ?? []).map((scenario) => ({ value: scenario.id, label: scenario.name }));
  return (
    <Select label="Scenario it treats" placeholder={braId === null ? 'Choose a BRA first' : 'The BRA as a whole'} data={options} value={value} onChange={onChange} clearable searchable disabled={braId === null} error={error} />
  );
}

/**
 * A new action, linked (if the person says so) to a BRA and one of its scenarios: D7.3 sets the links at
 * creation, and the service checks that the BRA is the caller's to link to and the scenario is that BRA's.
 */
export function CreateActionForm({ onCreated }: { onCreated: () => void }) {
  const create = useCreateAction();
  const bras = useBras({ page_size: 100 });
  const form = useForm({
    initialValues: { action: '', owner: '', owner_user_id: null as string | null, priority: 'medium', action_type: '', due_date: null as string | null, bra_id: null as string | null, bra_risk_scenario_id: null as string | null },
  });
  const err = (field: string) => fieldError(create.error, field);
  return (
    <form
      onSubmit={form.onSubmit((values) =>
        create.mutate(
          { ...values, priority: values.priority as never, due_date: values.due_date ?? '' },
          { onSuccess: () => { toastDone('The action is created.'); onCreated(); } },
        ),
      )}
    >
      <Stack>
        <TextInput label="Action" required {...form.getInputProps('action')} error={err('action')} />
        <TextInput label="Owner" required {...form.getInputProps('owner')} error={err('owner')} />
        <Select label="Priority" data={PRIORITIES} allowDeselect={false} {...form.getInputProps('priority')} error={err('priority')} />
        <TextInput label="Type" placeholder="Process, Technology, ..." required {...form.getInputProps('action_type')} error={err('action_type')} />
        <DateField label="Due date" required {...form.getInputProps('due_date')} error={err('due_date')} />
        <Select
          label="BRA"
          placeholder="Not linked to a BRA"
          searchable
          clearable
          data={(bras.data?.data ?? []).map((bra) => ({ value: bra.id, label: bra.name }))}
          value={form.values.bra_id}
          onChange={(value) => form.setValues({ bra_id: value, bra_risk_scenario_id: null })}
          error={err('bra_id')}
        />
        <ScenarioSelect braId={form.values.bra_id} value={form.values.bra_risk_scenario_id} onChange={(value) => form.setFieldValue('bra_risk_scenario_id', value)} error={err('bra_risk_scenario_id')} />
        <MemberPicker value={form.values.owner_user_id} onChange={(value) => form.setFieldValue('owner_user_id', value)} error={err('owner_user_id')} />
        <ErrorDisplay error={create.error} title="The action was not created" />
        <Group justify="flex-end">
          <Button type="submit" loading={create.isPending}>Create action</Button>
        </Group>
      </Stack>
    </form>
  );
}
