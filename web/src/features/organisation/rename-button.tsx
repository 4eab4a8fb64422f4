import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useState } from 'react';
import { ErrorDisplay } from '../../components/error-display';

/** "Rename" with the current name in a dialog; the field's own error is the service's, next to it. */
export function RenameButton({ what, current, pending, error, onRename }: { what: string; current: string; pending: boolean; error: unknown; onRename: (name: string, done: () => void) => void }) {
  const [opened, { open, close }] = useDisclosure(false);
  const [name, setName] = useState(current);
  return (
    <>
      <Button size="xs" variant="subtle" onClick={() => { setName(current); open(); }} aria-label={`Rename ${current}`}>Rename</Button>
      <Modal opened={opened} onClose={close} title={`Rename the ${what}`} centered closeButtonProps={{ 'aria-label': 'Close' }}>
        <form onSubmit={(event) => { event.preventDefault(); if (name.trim() !== '') onRename(name.trim(), close); }}>
          <Stack>
            <TextInput label="New name" value={name} onChange={(event) => setName(event.currentTarget.value)} error={name.trim() === '' ? 'Enter a name' : undefined} data-autofocus />
            <ErrorDisplay error={error} title="Not renamed" />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>Keep the name</Button>
              <Button type="submit" loading={pending} disabled={name.trim() === '' || name.trim() === current}>Rename</Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
