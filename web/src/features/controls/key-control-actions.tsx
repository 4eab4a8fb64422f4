import { Button, Group, Modal, Stack, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { ConfirmButton, toastDone } from '../../components/confirm-button';
import { ErrorDisplay, fieldError } from '../../components/error-display';
import { useArchiveKeyControl, useUpdateKeyControl, type KeyControl } from './api';

/** A client admin's changes to a key control: its name and description, and archiving it after confirming. */
export function KeyControlActions({ keyControl }: { keyControl: KeyControl }) {
  const [opened, { open, close }] = useDisclosure(false);
  const update = useUpdateKeyControl();
  const archive = useArchiveKeyControl();
  const initial = { name: keyControl.name, description: keyControl.description ?? '' };
  const form = useForm({ initialValues: initial });
  const submit = form.onSubmit((values) => {
    const change = {
      ...(values.name !== initial.name ? { name: values.name } : {}),
      ...(values.description !== initial.description ? { description: values.description.trim() === '' ? null : values.description } : {}),
    };
    if (Object.keys(change).length === 0) return close();
    update.mutate({ id: keyControl.id, change }, { onSuccess: () => { close(); toastDone(`${values.name} is saved.`); } });
  });
  const err = (field: string) => fieldError(update.error, field);
  if (keyControl.archived) return null;
  return (
    <Group gap="xs">
      <Button size="xs" variant="default" onClick={() => { form.setValues(initial); update.reset(); open(); }} aria-label={`Edit ${keyControl.name}`}>
        Edit
      </Button>
      <ConfirmButton
        label="Archive"
        aria-label={`Archive ${keyControl.name}`}
        title="Archive this key control?"
        loading={archive.isPending}
        onConfirm={() => archive.mutate(keyControl.id, { onSuccess: () => toastDone(`${keyControl.name} is archived.`) })}
      >
        {keyControl.name} and its sub-controls leave the library and the heat map. Their test history and the BRAs that link them keep them.
      </ConfirmButton>
      <ErrorDisplay error={archive.error} title="The key control was not archived" />
      <Modal opened={opened} onClose={close} title="Key control" closeButtonProps={{ 'aria-label': 'Close' }}>
        <form onSubmit={submit}>
          <Stack>
            <TextInput label="Name" required {...form.getInputProps('name')} error={err('name')} />
            <Textarea label="Description" autosize minRows={2} {...form.getInputProps('description')} error={err('description')} />
            <ErrorDisplay error={update.error} title="The key control was not saved" />
            <Group justify="flex-end">
              <Button type="submit" loading={update.isPending}>Save key control</Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Group>
  );
}
