import { Button, Group, Paper, Text, VisuallyHidden } from '@mantine/core';
import { useRef, useState, type DragEvent } from 'react';

/**
 * Files dropped on the area, or chosen with its button (the keyboard's way). Written here rather than taken
 * from @mantine/dropzone, whose 9.x needs Node.js 22 (react-dropzone 20) while the project runs on 20.
 */
export function FileDrop({ onFiles, label, hint, busy = false }: { onFiles: (files: File[]) => void; label: string; hint: string; busy?: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    const files = [...event.dataTransfer.files];
    if (files.length > 0) onFiles(files);
  };
  return (
    <Paper
      withBorder
      p="sm"
      aria-label={label}
      role="group"
      onDragOver={(event) => { event.preventDefault(); setOver(true); }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
      style={{ borderStyle: 'dashed', background: over ? 'var(--mantine-color-blue-0)' : undefined }}
    >
      <Group justify="space-between" wrap="wrap">
        <Text size="sm">{hint}</Text>
        <Button size="xs" variant="light" loading={busy} onClick={() => input.current?.click()}>Choose a file</Button>
      </Group>
      <VisuallyHidden>
        <input
          ref={input}
          type="file"
          multiple
          tabIndex={-1}
          aria-label={label}
          onChange={(event) => {
            const files = [...(event.currentTarget.files ?? [])];
            event.currentTarget.value = '';
            if (files.length > 0) onFiles(files);
          }}
        />
      </VisuallyHidden>
    </Paper>
  );
}
