import { Badge, Button, Modal, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { Empty, QueryState } from '../../components/page-states';
import { formatTime } from '../../lib/format';
import { useSnapshot, useSnapshots } from './api';

/** The BRA's immutable snapshots (at creation, at approval) and what each one holds. */
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
            <Table>
              <Table.Tbody>
                {list.map((entry) => (
                  <Table.Tr key={entry.id} data-testid="snapshot-row">
                    <Table.Td>
                      <Badge variant="light" color={entry.kind === 'approved' ? 'green' : 'gray'}>{entry.kind === 'approved' ? 'At approval' : 'At creation'}</Badge>
                    </Table.Td>
                    <Table.Td>{formatTime(entry.created_at)}</Table.Td>
                    <Table.Td>
                      <Button size="xs" variant="light" onClick={() => setOpen(entry.id)}>
                        View
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
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
