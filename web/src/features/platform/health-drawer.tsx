import { Badge, Drawer, Group, Progress, Stack, Table, Text, Title } from '@mantine/core';
import { QueryState } from '../../components/page-states';
import { formatTime } from '../../lib/format';
import { useEnterpriseHealth, type EnterpriseHealth } from './api';

const STATUS_COLORS: Record<string, string> = { healthy: 'green', at_risk: 'yellow', critical: 'red' };
const STATUS_WORDS: Record<string, string> = { healthy: 'Healthy', at_risk: 'At risk', critical: 'Critical' };

export function HealthBadge({ status, score }: { status: string; score?: number }) {
  return (
    <Badge color={STATUS_COLORS[status] ?? 'gray'} variant="light" style={{ overflow: 'visible' }}>
      {STATUS_WORDS[status] ?? status}{score !== undefined ? ` · ${score}` : ''}
    </Badge>
  );
}

/** The score's daily trend as a row of bars (oldest first), with the change over the period in words. */
function Trend({ history }: { history: EnterpriseHealth['history'] }) {
  if (history.length === 0) return <Text size="sm" c="dimmed">No daily assessment yet: the trend starts with the first nightly assessment.</Text>;
  const first = history[0]!;
  const last = history[history.length - 1]!;
  const change = last.score - first.score;
  return (
    <Stack gap={4}>
      <Group gap={2} align="flex-end" h={60} aria-hidden>
        {history.map((day) => (
          <div key={day.date} title={`${day.date}: ${day.score}`} style={{ width: 6, height: `${Math.max(day.score, 2) * 0.6}px`, background: `var(--mantine-color-${STATUS_COLORS[day.status] ?? 'gray'}-6)` }} />
        ))}
      </Group>
      <Text size="sm">
        From {first.score} on {first.date} to {last.score} on {last.date} ({change === 0 ? 'unchanged' : change > 0 ? `up ${change}` : `down ${-change}`}, {history.length} days)
      </Text>
    </Stack>
  );
}

export function HealthDrawer({ enterpriseId, name, onClose }: { enterpriseId: string | null; name: string; onClose: () => void }) {
  const health = useEnterpriseHealth(enterpriseId);
  return (
    <Drawer opened={enterpriseId !== null} onClose={onClose} position="right" size="lg" closeButtonProps={{ 'aria-label': 'Close' }} title={<Title order={2} size="h4">Health of {name}</Title>}>
      <QueryState query={health}>
        {(data) => (
          <Stack>
            <Group>
              <Text size="xl" fw={700} data-testid="health-score">{data.score}</Text>
              <HealthBadge status={data.status} />
              <Text size="sm" c="dimmed">computed {formatTime(data.computed_at)}</Text>
            </Group>
            <Title order={3} size="h5">Trend (last 90 days)</Title>
            <Trend history={data.history} />
            <Title order={3} size="h5">Signals</Title>
            <Table>
              <Table.Thead><Table.Tr><Table.Th>Signal</Table.Th><Table.Th>Now</Table.Th><Table.Th>Points off</Table.Th></Table.Tr></Table.Thead>
              <Table.Tbody>
                {data.signals.map((signal) => (
                  <Table.Tr key={signal.name}>
                    <Table.Td><Text size="sm">{signal.description}</Text></Table.Td>
                    <Table.Td>{signal.value}{signal.out_of !== null ? ` of ${signal.out_of}` : ''}</Table.Td>
                    <Table.Td miw={120}>
                      <Text size="sm">{signal.penalty} of {signal.max_penalty}</Text>
                      <Progress value={signal.max_penalty === 0 ? 0 : (signal.penalty / signal.max_penalty) * 100} color="red" size="sm" aria-label={`${signal.penalty} of ${signal.max_penalty} points off`} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Stack>
        )}
      </QueryState>
    </Drawer>
  );
}
