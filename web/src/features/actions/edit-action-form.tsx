import { Button, Group, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { DateField } from '../../components/date-field';
import { toastDone } from '../../components/confirm-button';
import { ErrorDisplay, fieldError } from '../../components/error-display';
import { ACTION_STATUSES, PRIORITIES, useUpdateAction, type ActionChanges, type MitigationAction } from './api';
import { MemberPicker } from './member-picker';

const FIELDS = ['action', 'owner', 'owner_user_id', 'priority', 'action_type', 'due_date', 'status'] as const;

/** An action's own fields; only what changed is sent, so a field nobody touched is never overwritten. */
export function EditActionForm({ action, onSaved }: { action: MitigationAction; onSaved: () => void }) {
  const update = useUpdateAction();
  const initial = { action: action.action, owner: action.owner, owner_user_id: action.owner_user_id, priority: action.priority as string, action_type: action.action_type, due_date: action.due_date as string | null, status: action.status as string };
  const form = useForm({ initialValues: initial });
  const submit = form.onSubmit((values) => {
    const changes = Object.fromEntries(FIELDS.filter((field) => values[field] !== initial[field]).map((field) => [field, values[field]])) as ActionChanges;
    if (Object.keys(changes).length === 0) return onSaved();
    update.mutate({ id: action.id, changes }, { onSuccess: () => { toastDone('The action is saved.'); onSaved(); } });
  });
  const err = (field: string) => fieldError(update.error, field);
  return (
    <form onSubmit={submit}>
      <Stack>
        <TextInput label="Action" required {...form.getInputProps('action')} error={err('action')} />
        <TextInput label="Owner" required {...form.getInputProps('owner')} error={err('owner')} />
        <MemberPicker value={form.values.owner_user_id} current={action.owner_user} onChange={(value) => form.setFieldValue('owner_user_id', value)} error={err('owner_user_id')} />
        <Select label="Status" data={ACTION_STATUSES} allowDeselect={false} {...form.getInputProps('status')} error={err('status')} />
        <Select label="Priority" data={PRIORITIES} allowDeselect={false} {...form.getInputProps('priority')} error={err('priority')} />
        <TextInput label="Type" required {...form.getInputProps('action_type')} error={err('action_type')} />
        <DateField label="Due date" required {...form.getInputProps('due_date')} error={err('due_date')} />
        <ErrorDisplay error={update.error} title="The action was not saved" />
        <Group justify="flex-end">
          <Button type="submit" loading={update.isPending}>Save action</Button>
        </Group>
      </Stack>
    </form>
  );
}
