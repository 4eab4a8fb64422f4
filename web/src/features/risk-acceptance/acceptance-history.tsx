import { Badge, Group, Select, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { WHOLE_BADGE } from '../../components/level-colors';
import { Empty, QueryState } from '../../components/page-states';
import { PagedTable } from '../../components/paged-table';
import { formatTime } from '../../lib/format';
import { STATE_LABELS, STATUS_FILTERS, acceptanceState, type AcceptanceState } from './acceptance-terms';
import { useAcceptances, type AcceptanceStatus, type RiskAcceptance } from './api';

const STATE_COLOR: Record<AcceptanceState, string> = { active: 'green', lapsed: 'yellow', renewed: 'blue', revoked: 'red', expired: 'gray', ended: 'orange' };

function Ended({ acceptance }: { acceptance: RiskAcceptance }) {
  if (acceptance.ended_at === null) return <Text size="sm" c="dimmed">–</Text>;
  return (
    <>
      <Text size="sm">{formatTime(acceptance.ended_at)}</Text>
      {acceptance.end_reason && <Text size="xs" c="dimmed">{acceptance.end_reason}</Text>}
    </>
  );
}

/**
 * A BRA's risk acceptances, every state (active, renewed, revoked, expired, ended), newest as the service
 * orders them: the record of which risks above appetite were accepted, by whom, until when, and how each ended.
 */
export function AcceptanceHistory({ braId }: { braId: string }) {
  const [status, setStatus] = useState<AcceptanceStatus | null>(null);
  const [page, setPage] = useState(1);
  const acceptances = useAcceptances({ bra_id: braId, status: status ?? undefined, page, page_size: 20 });
  return (
    <Stack>
      <Group>
        <Select label="State" placeholder="Any state" clearable data={STATUS_FILTERS} value={status} onChange={(value) => { setStatus(value as AcceptanceStatus | null); setPage(1); }} />
      </Group>
      <QueryState query={acceptances}>
        {(answer) =>
          answer.data.length === 0 ? (
            <Empty title="No risk acceptances" next="A client admin accepts a scenario above appetite from the Scenarios tab or the risk register; each acceptance, renewal and revocation is listed here." />
          ) : (
            <PagedTable minWidth={900} striped data-testid="acceptance-history" columns={['Scenario', 'State', 'Last day', 'Accepted', 'Rationale', 'Ended']} pagination={answer.pagination} onPage={setPage}>
              {answer.data.map((acceptance) => {
                const state = acceptanceState(acceptance);
                return (
                  <Table.Tr key={acceptance.id} data-testid="acceptance-row">
                    <Table.Td><Text size="sm" fw={600}>{acceptance.scenario_name}</Text></Table.Td>
                    <Table.Td><Badge color={STATE_COLOR[state]} variant="light" tt="none" style={WHOLE_BADGE} data-state={state}>{STATE_LABELS[state]}</Badge></Table.Td>
                    <Table.Td><Text size="sm">{acceptance.expires_on}</Text></Table.Td>
                    <Table.Td>
                      <Text size="sm">{acceptance.accepted_by_user?.full_name ?? 'A client admin'}</Text>
                      <Text size="xs" c="dimmed">{formatTime(acceptance.accepted_at)} · residual {acceptance.accepted_residual_score} above {acceptance.accepted_threshold}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{acceptance.rationale}</Text>
                      {acceptance.conditions && <Text size="xs" c="dimmed">Conditions: {acceptance.conditions}</Text>}
                    </Table.Td>
                    <Table.Td><Ended acceptance={acceptance} /></Table.Td>
                  </Table.Tr>
                );
              })}
            </PagedTable>
          )
        }
      </QueryState>
    </Stack>
  );
}
