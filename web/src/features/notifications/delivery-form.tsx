import { Button, Group, Select, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { ErrorDisplay } from '../../components/error-display';
import type { NotificationKind } from './api';
import { NOTIFICATION_KINDS } from './notification-kinds';
import type { ChoiceOf, Delivery, DeliveryChoice, Preference } from './preferences-api';

const DELIVERIES: { value: Delivery; label: string }[] = [
  { value: 'immediate', label: 'Immediately' },
  { value: 'digest', label: 'Daily digest' },
  { value: 'off', label: 'Off' },
];
const deliveryLabel = (delivery: Delivery) => DELIVERIES.find((entry) => entry.value === delivery)!.label;

/** Whose delivery a row shows: a person's own, the enterprise's default, or the service's. */
export type Source = Preference['source'];
const SOURCES: Record<Source, string> = { user: 'Your choice', enterprise: "The enterprise's default", default: "The service's default" };

export interface DeliveryRow {
  kind: NotificationKind;
  delivery: Delivery;
  source: Source;
}

/**
 * What a row's select holds: the delivery set at this level (`own`: the person's for their preferences, the
 * enterprise's for its defaults), or `default` while it follows the level below.
 */
export function choiceOf(row: DeliveryRow, own: Source): DeliveryChoice {
  return row.source === own ? row.delivery : 'default';
}

/** The rows in the order of the kinds (the review loop, then the reminders); a kind the console does not know yet goes last. */
export function orderedRows<R extends DeliveryRow>(rows: R[]): R[] {
  const rank = (kind: string) => {
    const index = NOTIFICATION_KINDS.findIndex((entry) => entry.kind === kind);
    return index === -1 ? NOTIFICATION_KINDS.length : index;
  };
  return [...rows].sort((a, b) => rank(a.kind) - rank(b.kind));
}

/**
 * One row per kind of notification with a select: immediately, daily digest, off, or the default (with its
 * delivery while the row follows it); under each, where the delivery now comes from. Saved all at once.
 */
export function DeliveryForm({ rows, own, saving, error, onSave }: {
  rows: DeliveryRow[];
  own: Source;
  saving: boolean;
  error: unknown;
  onSave: (choices: ChoiceOf[]) => void;
}) {
  const ordered = orderedRows(rows);
  const [choices, setChoices] = useState<Record<string, DeliveryChoice>>(() => Object.fromEntries(ordered.map((row) => [row.kind, choiceOf(row, own)])));
  const changed = ordered.some((row) => choices[row.kind] !== choiceOf(row, own));
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSave(ordered.map((row) => ({ kind: row.kind, delivery: choices[row.kind]! })));
      }}
    >
      <Stack>
        <Table.ScrollContainer minWidth={420}>
          <Table verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Notification</Table.Th>
                <Table.Th>Mail</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {ordered.map((row) => {
                const label = NOTIFICATION_KINDS.find((entry) => entry.kind === row.kind)?.label ?? row.kind;
                const follows = row.source !== own;
                return (
                  <Table.Tr key={row.kind} data-testid="delivery-row">
                    <Table.Td>
                      <Text size="sm">{label}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Select
                        aria-label={label}
                        allowDeselect={false}
                        value={choices[row.kind] ?? 'default'}
                        onChange={(value) => value !== null && setChoices((current) => ({ ...current, [row.kind]: value as DeliveryChoice }))}
                        data={[
                          { value: 'default', label: follows ? `Default (${deliveryLabel(row.delivery)})` : 'Default' },
                          ...DELIVERIES,
                        ]}
                        description={SOURCES[row.source]}
                        data-testid={`delivery-${row.kind}`}
                      />
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <ErrorDisplay error={error} title="Not saved" />
        <Group justify="flex-end">
          <Button type="submit" loading={saving} disabled={!changed}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
