import { Badge, Button, Group, Modal, Select, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import { Empty, QueryState } from '../../components/page-states';
import { formatTime } from '../../lib/format';
import { useSnapshot, useSnapshots } from './api';
import { BraDiffView, endKind } from './bra-diff';
import { useBraDiff } from './history-api';

const CURRENT = 'current';

type SnapshotEntry = NonNullable<ReturnType<typeof useSnapshots>['data']>[number];


/** Any two ends of the BRA compared: a snapshot against another, or against now. The latest approval against now by default. */
function Compare({ braId, list }: { braId: string; list: SnapshotEntry[] }) {
  const approvals = list.filter((entry) => entry.kind === 'approved');
  const [from, setFrom] = useState<string | null>((approvals.at(-1) ?? list[0])?.id ?? null);
  const [to, setTo] = useState<string | null>(CURRENT);
  const [asked, setAsked] = useState(false);
  const diff = useBraDiff(braId, asked ? from : null, asked ? to : null);
  const options = list.map((entry) => ({ value: entry.id, label: `${endKind(entry, braId)}, ${formatTime(entry.created_at)}` }));
  return (
    <Stack gap="xs">
      <Title order={2} size="h4">Compare</Title>
      <Group align="flex-end" wrap="wrap">
        <Select label="From" data={options} value={from} onChange={(value) => { setFrom(value); setAsked(false); }} allowDeselect={false} miw={240} />
        <Select label="To" data={[...options, { value: CURRENT, label: 'Now (the live BRA)' }]} value={to} onChange={(value) => { setTo(value); setAsked(false); }} allowDeselect={false} miw={240} />
        <Button onClick={() => setAsked(true)} disabled={from === null || to === null}>
          Show changes
        </Button>
      </Group>
      {asked && <QueryState query={diff}>{(changes) => <BraDiffView diff={changes} />}</QueryState>}
    </Stack>
  );
}

/** The BRA's immutable snapshots (at creation, at approval; after a roll-forward the previous period's approval too). */
export function BraSnapshots({ braId }: { braId: string }) {
  const snapshots = useSnapshots(braId);
  const [open, setOpen] = useState<string | null>(null);
  const snapshot = useSnapshot(braId, open);
  return (
    <>
      <QueryState query={snapshots}>
        {(list) =>
          list.length === 0 ? (
            <Empty title="No snapshots" next="A snapshot is taken when the BRA is created and when it is approved." />
          ) : (
            <Stack>
              <Table>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Taken</Table.Th>
                    <Table.Th>When</Table.Th>
                    <Table.Th>By</Table.Th>
                    <Table.Th><VisuallyHidden>Open</VisuallyHidden></Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {list.map((entry) => (
                    <Table.Tr key={entry.id} data-testid="snapshot-row">
                      <Table.Td>
                        <Badge variant="light" color={entry.kind === 'approved' ? 'green' : 'gray'}>{endKind(entry, braId)}</Badge>
                      </Table.Td>
                      <Table.Td>{formatTime(entry.created_at)}</Table.Td>
                      <Table.Td>{entry.created_by_user?.full_name ?? '—'}</Table.Td>
                      <Table.Td>
                        <Button size="xs" variant="light" onClick={() => setOpen(entry.id)}>
                          View
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
              <Compare braId={braId} list={list} />
            </Stack>
          )
        }
      </QueryState>
      <Modal opened={open !== null} onClose={() => setOpen(null)} title="Snapshot" size="lg">
        <QueryState query={snapshot}>
          {(content) => (
            <Stack gap="xs">
              <Text size="sm">
                {content.content.name}, {content.content.status.replace('_', ' ')}, taken {formatTime(content.created_at)}
              </Text>
              <Text size="sm">
                {content.content.summary.assessed_scenarios} of {content.content.summary.total_scenarios} scenarios assessed, {content.content.summary.risks_above_appetite} above appetite
              </Text>
              <Table>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Scenario</Table.Th>
                    <Table.Th>Inherent</Table.Th>
                    <Table.Th>Residual</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {content.content.scenarios.map((scenario) => (
                    <Table.Tr key={scenario.id}>
                      <Table.Td>{scenario.name}</Table.Td>
                      <Table.Td>{scenario.inherent_rating ? `${scenario.inherent_rating.risk_score} ${scenario.inherent_rating.risk_level}` : 'Not rated'}</Table.Td>
                      <Table.Td>{scenario.residual_rating ? `${scenario.residual_rating.risk_score} ${scenario.residual_rating.risk_level}` : 'Not rated'}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Stack>
          )}
        </QueryState>
      </Modal>
    </>
  );
}
