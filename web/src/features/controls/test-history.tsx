import { Badge, Button, Table, Text } from '@mantine/core';
import { WHOLE_BADGE, effectivenessColor } from '../../components/level-colors';
import { formatDate, formatTime } from '../../lib/format';
import type { TestRecord } from './api';

const SOURCES: Record<TestRecord['source'], string> = {
  test: 'Complete test',
  update: 'Result changed',
  create: 'Result at creation',
  import: 'Library import',
  baseline: 'Earlier result',
};

/** "B — Sample of 25 reviews" or "B" alone: a result and why, as the tester wrote it. */
function withWhy(value: string | null, why: string | null) {
  if (value === null) return <Text size="sm" c="dimmed">–</Text>;
  return (
    <>
      <Text size="sm" fw={600}>{value}</Text>
      {why && <Text size="xs">{why}</Text>}
    </>
  );
}

/**
 * A sub-control's test history, newest first: what was found (ToD, ToE and why), by whom and when, the
 * evidence notes, and who entered it. `onEvidence` opens a test's files.
 */
export function TestHistory({ tests, onEvidence }: { tests: TestRecord[]; onEvidence?: (test: TestRecord) => void }) {
  if (tests.length === 0) return <Text size="sm" c="dimmed" data-testid="test-history-empty">No test recorded yet.</Text>;
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table data-testid="test-history" verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Tested</Table.Th>
            <Table.Th>ToD</Table.Th>
            <Table.Th>ToE</Table.Th>
            <Table.Th>Effectiveness</Table.Th>
            <Table.Th>Evidence notes</Table.Th>
            <Table.Th>Entered</Table.Th>
            {onEvidence && <Table.Th>Files</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {tests.map((test) => (
            <Table.Tr key={test.id} data-testid="test-record">
              <Table.Td>
                <Text size="sm">{formatDate(test.testing_date)}</Text>
                <Text size="xs" c="dimmed">{test.tested_by ?? 'tester not named'}</Text>
              </Table.Td>
              <Table.Td>{withWhy(test.tod, test.tod_justification)}</Table.Td>
              <Table.Td>{withWhy(test.toe, test.toe_justification)}</Table.Td>
              <Table.Td>
                <Badge color={effectivenessColor(test.total_effectiveness)} variant="light" style={WHOLE_BADGE}>{test.total_effectiveness ?? 'Not assessed'}</Badge>
              </Table.Td>
              <Table.Td><Text size="sm">{test.evidence_notes ?? '–'}</Text></Table.Td>
              <Table.Td>
                <Text size="sm">{SOURCES[test.source]}</Text>
                <Text size="xs" c="dimmed">{test.recorded_by_user?.full_name ?? 'the service'}, {formatTime(test.recorded_at)}</Text>
              </Table.Td>
              {onEvidence && (
                <Table.Td>
                  <Button size="xs" variant="light" onClick={() => onEvidence(test)} aria-label={`Files of the test of ${formatDate(test.testing_date)}`}>
                    Files
                  </Button>
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
