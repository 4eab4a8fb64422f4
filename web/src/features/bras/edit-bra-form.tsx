import { Button, Group, Modal, Stack, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { toastDone } from '../../components/confirm-button';
import { ErrorDisplay, fieldError } from '../../components/error-display';
import { useUpdateBra, type BraChanges, type BraDetail } from './api';

/**
 * The BRA's own fields, changed while its abilities allow an update (draft or in progress, by whoever may
 * edit it). Only what changed is sent, so a field left alone is never overwritten with what this form read.
 */
export function EditBraButton({ bra }: { bra: BraDetail }) {
  const [opened, { open, close }] = useDisclosure(false);
  const update = useUpdateBra(bra.id);
  const initial = { name: bra.name, description: bra.description ?? '', period: bra.period, assessor: bra.assessor };
  const form = useForm({ initialValues: initial });
  const submit = form.onSubmit((values) => {
    const changes: BraChanges = Object.fromEntries(Object.entries(values).filter(([field, value]) => value !== initial[field as keyof typeof initial]));
    if (changes.description !== undefined) changes.description = values.description.trim() === '' ? null : values.description;
    if (Object.keys(changes).length === 0) return close();
    update.mutate(changes, { onSuccess: () => { close(); toastDone('The BRA is saved.'); } });
  });
  const err = (field: string) => fieldError(update.error, field);
  return (
    <>
      <Button variant="default" onClick={() => { form.setValues(initial); update.reset(); open(); }}>
        Edit details
      </Button>
      <Modal opened={opened} onClose={close} title="BRA details" size="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
        <form onSubmit={submit}>
          <Stack>
            <TextInput label="Name" required {...form.getInputProps('name')} error={err('name')} />
            <TextInput label="Period" required {...form.getInputProps('period')} error={err('period')} />
            <TextInput label="Assessor" required {...form.getInputProps('assessor')} error={err('assessor')} />
            <Textarea label="Description" autosize minRows={3} {...form.getInputProps('description')} error={err('description')} />
            <ErrorDisplay error={update.error} title="The BRA was not saved" />
            <Group justify="flex-end">
              <Button type="submit" loading={update.isPending}>
                Save details
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
