import { Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { DateField } from '../../components/date-field';
import { ErrorDisplay } from '../../components/error-display';
import { ACTION_STATUSES, useBulkUpdate, type ActionStatus, type BulkChanges } from './api';

/**
 * One change for every selected action: a status, an owner, a due date, or several at once. All or nothing
 * (D7.3): the service changes every action or none, and says which one stopped it. The screen says how
 * many changed (the bar closes with the selection).
 */
export function BulkBar({ selected, onDone }: { selected: string[]; onDone: (updatedCount: number) => void }) {
  const bulk = useBulkUpdate();
  const [status, setStatus] = useState<ActionStatus | null>(null);
  const [owner, setOwner] = useState('');
  const [dueDate, setDueDate] = useState<string | null>(null);
  const updates: BulkChanges = { ...(status ? { status } : {}), ...(owner.trim() !== '' ? { owner } : {}), ...(dueDate ? { due_date: dueDate } : {}) };
  const apply = () =>
    bulk.mutate(
      { ids: selected, updates },
      {
        onSuccess: (result) => {
          setStatus(null);
          setOwner('');
          setDueDate(null);
          onDone(result.updated_count);
        },
      },
    );
  return (
    <Stack mb="md" data-testid="bulk-bar">
      <Group align="flex-end" wrap="wrap">
        <Text size="sm">{selected.length} selected</Text>
        <Select label="New status" data={ACTION_STATUSES} value={status} onChange={(value) => setStatus(value as ActionStatus | null)} clearable />
        <TextInput label="New owner" value={owner} onChange={(event) => setOwner(event.currentTarget.value)} />
        <DateField label="New due date" clearable value={dueDate} onChange={(value) => setDueDate(value as string | null)} />
        <Button disabled={Object.keys(updates).length === 0} loading={bulk.isPending} onClick={apply}>
          Apply to selected
        </Button>
      </Group>
      <ErrorDisplay error={bulk.error} title="No action was changed" />
    </Stack>
  );
}
