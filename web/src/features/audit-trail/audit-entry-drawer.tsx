import { Anchor, Badge, Button, Code, Drawer, Group, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { formatTime } from '../../lib/format';
import type { AuditEntry, AuditFilters } from './api';
import { readableDetails } from './change-details';
import { actionLabel, RECORD_KINDS, recordLabel } from './record-kinds';

/**
 * One entry of the trail in full: who, when, from where, what changed (field by field) and on which record,
 * with a link to that record's screen and the two filters an auditor reaches for next.
 */
export function AuditEntryDrawer({ entry, onClose, onFilter }: { entry: AuditEntry | null; onClose: () => void; onFilter: (patch: Partial<AuditFilters>) => void }) {
  const details = entry ? readableDetails(entry.action_details) : null;
  const screen = entry?.entity_type && entry.entity_id ? RECORD_KINDS[entry.entity_type as keyof typeof RECORD_KINDS]?.screen?.(entry.entity_id) : undefined;
  return (
    <Drawer opened={entry !== null} onClose={onClose} position="right" size="lg" title="Audit entry" closeButtonProps={{ 'aria-label': 'Close the entry' }}>
      {entry && details && (
        <Stack gap="md">
          <Group gap="xs">
            <Badge variant="light">{actionLabel(entry.action_type)}</Badge>
            <Badge color={entry.status === 'success' ? 'green' : 'red'} variant="light">{entry.status === 'success' ? 'Succeeded' : 'Failed'}</Badge>
          </Group>
          <Table variant="vertical" layout="fixed" withTableBorder>
            <Table.Tbody>
              <Table.Tr><Table.Th w={140}>When</Table.Th><Table.Td>{formatTime(entry.created_at)}</Table.Td></Table.Tr>
              <Table.Tr><Table.Th>Who</Table.Th><Table.Td>{entry.user_name ?? '–'} {entry.user_email && <Text span c="dimmed" size="sm">({entry.user_email})</Text>}</Table.Td></Table.Tr>
              <Table.Tr><Table.Th>Record</Table.Th><Table.Td>{recordLabel(entry.entity_type)} {entry.entity_id && <Code>{entry.entity_id}</Code>}</Table.Td></Table.Tr>
              <Table.Tr><Table.Th>Operation</Table.Th><Table.Td>{details.operation ?? '–'}</Table.Td></Table.Tr>
              <Table.Tr><Table.Th>From</Table.Th><Table.Td>{entry.ip_address ?? '–'}</Table.Td></Table.Tr>
            </Table.Tbody>
          </Table>
          {screen && (
            <Anchor component={Link} to={screen} onClick={onClose}>
              Open this {recordLabel(entry.entity_type)}
            </Anchor>
          )}
          <Title order={3} size="h5">What changed</Title>
          {details.changes.length === 0 ? (
            <Text size="sm" c="dimmed">No field-by-field change is recorded for this entry.</Text>
          ) : (
            <Table withTableBorder data-testid="entry-changes">
              <Table.Thead>
                <Table.Tr><Table.Th>Field</Table.Th><Table.Th>Before</Table.Th><Table.Th>After</Table.Th></Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {details.changes.map((change) => (
                  <Table.Tr key={change.field}><Table.Td>{change.field}</Table.Td><Table.Td>{change.from}</Table.Td><Table.Td>{change.to}</Table.Td></Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          {details.other.length > 0 && (
            <Table withTableBorder>
              <Table.Tbody>
                {details.other.map((item) => (
                  <Table.Tr key={item.key}><Table.Th w={140}>{item.key}</Table.Th><Table.Td style={{ wordBreak: 'break-word' }}>{item.value}</Table.Td></Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          <Group>
            {entry.user_id && <Button variant="default" onClick={() => { onFilter({ user_id: entry.user_id ?? undefined }); onClose(); }}>Only this person's entries</Button>}
            {entry.entity_id && <Button variant="default" onClick={() => { onFilter({ entity_id: entry.entity_id ?? undefined }); onClose(); }}>Only this record's entries</Button>}
          </Group>
        </Stack>
      )}
    </Drawer>
  );
}
