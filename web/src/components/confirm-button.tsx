import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Text, type ButtonProps } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { toast } from './toast';
import type { ReactNode } from 'react';

/** The toast every change ends with (issue 46: a change a person makes is always confirmed on screen). */
export function toastDone(message: string) {
  toast({ title: 'Done', message });
}

/** A button that asks first: the destructive actions of the integration and platform screens. */
export function ConfirmButton({ label, title, children, confirmLabel, confirmColor = 'red.9', onConfirm, loading, ...button }: ButtonProps & {
  label: string;
  title: string;
  children: ReactNode;
  confirmLabel?: string;
  /** The confirming button's colour: a dark shade, so that its white label keeps 4.5:1 (axe-core). */
  confirmColor?: string;
  onConfirm: () => void;
}) {
  const [opened, { open, close }] = useDisclosure(false);
  return (
    <>
      <Button size="xs" variant="light" color="red" {...button} loading={loading} onClick={open}>{label}</Button>
      <Modal opened={opened} onClose={close} title={title} centered closeButtonProps={{ 'aria-label': 'Close' }}>
        <Stack>
          <Text size="sm">{children}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>Keep it</Button>
            <Button color={confirmColor} onClick={() => { close(); onConfirm(); }}>{confirmLabel ?? label}</Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

/** A secret the service shows once (a token, a signing secret): shown here with a copy button, never again. */
export function SecretOnce({ title, secret, onClose, children }: { title: string; secret: string | null; onClose: () => void; children?: ReactNode }) {
  return (
    <Modal opened={secret !== null} onClose={onClose} title={title} centered size="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
      <Stack>
        <Alert color="yellow" variant="light" title="Shown only now">
          Copy it and keep it where the receiving system can read it: the service keeps only its hash and cannot show it again.
        </Alert>
        <Code block data-testid="secret-once">{secret}</Code>
        {children}
        <Group justify="flex-end">
          <CopyButton value={secret ?? ''}>{({ copied, copy }) => <Button variant="light" onClick={copy}>{copied ? 'Copied' : 'Copy'}</Button>}</CopyButton>
          <Button onClick={onClose}>I have kept it</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
