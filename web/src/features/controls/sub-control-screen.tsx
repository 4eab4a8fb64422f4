import { Accordion, Anchor, Badge, Group, Modal, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { ConfirmButton, toastDone } from '../../components/confirm-button';
import { ErrorDisplay } from '../../components/error-display';
import { WHOLE_BADGE, effectivenessColor } from '../../components/level-colors';
import { Pager, QueryState } from '../../components/page-states';
import { formatDate } from '../../lib/format';
import { EvidencePanel } from '../evidence/evidence-panel';
import { useCaller } from '../me/caller-context';
import { useArchiveSubControl, useSubControl, useTestHistory, type SubControlRead, type TestRecord } from './api';
import { CompleteTestForm } from './complete-test-form';
import { CurrentResultForm } from './current-result-form';
import { TestHistory } from './test-history';

function CurrentResult({ sub }: { sub: SubControlRead }) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 5 }} data-testid="current-result">
      {[
        ['ToD', sub.tod ?? '–'],
        ['ToE', sub.toe ?? '–'],
        ['Tested', sub.testing_date ? `${formatDate(sub.testing_date)} by ${sub.tested_by ?? 'not named'}` : 'Never'],
        ['Tests recorded', String(sub.tests_count)],
        ['Next test due', sub.next_test_due ? formatDate(sub.next_test_due) : 'No schedule'],
      ].map(([label, value]) => (
        <Paper withBorder p="xs" key={label}>
          <Text size="xs" c="dimmed">{label}</Text>
          <Text fw={600}>{value}</Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}

function History({ sub }: { sub: SubControlRead }) {
  const [page, setPage] = useState(1);
  const tests = useTestHistory(sub.id, page);
  const [files, setFiles] = useState<TestRecord | null>(null);
  return (
    <Stack gap="xs">
      <Title order={2} size="h4">Test history</Title>
      <QueryState query={tests}>
        {(answer) => (
          <>
            <TestHistory tests={answer.data} onEvidence={setFiles} />
            <Pager pagination={answer.pagination} onChange={setPage} />
          </>
        )}
      </QueryState>
      <Modal opened={files !== null} onClose={() => setFiles(null)} title={files ? `Files of the test of ${formatDate(files.testing_date)}` : ''} size="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
        {files && <EvidencePanel record={{ record_type: 'sub_control_test', record_id: files.id }} title="Evidence of this test" />}
      </Modal>
    </Stack>
  );
}

/** One sub-control: its current result, its test history with each test's files, and what the caller may do. */
export function SubControlScreen() {
  const { subControlId = '' } = useParams();
  const sub = useSubControl(subControlId);
  const caller = useCaller();
  const archive = useArchiveSubControl();
  return (
    <QueryState query={sub}>
      {(detail) => (
        <Stack>
          <Anchor component={Link} to="/controls" size="sm">← Control library</Anchor>
          <Group justify="space-between" wrap="wrap">
            <Stack gap={2}>
              <Group gap="sm">
                <Title order={1} size="h2">{detail.name}</Title>
                <Badge color={effectivenessColor(detail.total_effectiveness)} variant="light" style={WHOLE_BADGE}>{detail.total_effectiveness ?? 'Not assessed'}</Badge>
                {detail.archived && <Badge color="gray" style={WHOLE_BADGE}>Archived</Badge>}
              </Group>
              {detail.description && <Text size="sm">{detail.description}</Text>}
            </Stack>
            {detail.abilities.archive && (
              <ConfirmButton
                label="Archive sub-control"
                title="Archive this sub-control?"
                loading={archive.isPending}
                onConfirm={() => archive.mutate(detail.id, { onSuccess: () => toastDone(`${detail.name} is archived.`) })}
              >
                {detail.name} leaves the library and the heat map; its test history and the BRAs that link it keep it. Archived sub-controls are listed on request.
              </ConfirmButton>
            )}
          </Group>
          <ErrorDisplay error={archive.error} title="The sub-control was not archived" />
          <CurrentResult sub={detail} />
          {detail.abilities.record_test && (
            <Accordion variant="separated" defaultValue="test">
              <Accordion.Item value="test">
                <Accordion.Control>Record a complete test</Accordion.Control>
                <Accordion.Panel>
                  <CompleteTestForm subControlId={detail.id} testerName={caller.full_name} />
                </Accordion.Panel>
              </Accordion.Item>
              <Accordion.Item value="current">
                <Accordion.Control>Correct the current result or the testing frequency</Accordion.Control>
                <Accordion.Panel>
                  <CurrentResultForm key={detail.updated_at} subControl={detail} />
                </Accordion.Panel>
              </Accordion.Item>
            </Accordion>
          )}
          <History sub={detail} />
        </Stack>
      )}
    </QueryState>
  );
}
