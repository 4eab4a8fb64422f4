import { notifications } from '@mantine/notifications';

/**
 * A toast after a change (Mantine notifications), accessible as axe-core checks it: the close button is
 * named and the message keeps the text colour (Mantine's dimmed description falls short of 4.5:1).
 */
export function toast({ title, message, color = 'green' }: { title: string; message: string; color?: string }) {
  notifications.show({
    title,
    message,
    color,
    closeButtonProps: { 'aria-label': 'Close the notice' },
    styles: { description: { color: 'var(--mantine-color-text)' } },
  });
}
