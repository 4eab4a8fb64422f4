import { Button, Group, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ErrorDisplay, fieldError } from '../../components/error-display';
import { PRIORITIES, useCreateAction } from './api';
import { DateField } from '../../components/date-field';

export function CreateActionForm({ onCreated }: { onCreated: () => void }) {
  const create = useCreateAction();
  const form = useForm({ initialValues: { action: '', owner: '', priority: 'medium', action_type: '', due_date: null as string | null } });
  const err = (field: string) => fieldError(create.error, field);
  return (
    <form
      onSubmit={form.onSubmit((values) =>
        create.mutate({ ...values, priority: values.priority as never, due_date: values.due_date ?? '' }, { onSuccess: onCreated }),
      )}
    >
      <Stack>
        <TextInput label="Action" required {...form.getInputProps('action')} error={err('action')} />
        <TextInput label="Owner" required {...form.getInputProps('owner')} error={err('owner')} />
        <Select label="Priority" data={PRIORITIES} allowDeselect={false} {...form.getInputProps('priority')} error={err('priority')} />
        <TextInput label="Type" placeholder="Process, Technology, ..." required {...form.getInputProps('action_type')} error={err('action_type')} />
        <DateField label="Due date" required {...form.getInputProps('due_date')} error={err('due_date')} />
        <ErrorDisplay error={create.error} title="The action was not created" />
        <Group justify="flex-end">
          <Button type="submit" loading={create.isPending}>Create action</Button>
        </Group>
      </Stack>
    </form>
  );
}
