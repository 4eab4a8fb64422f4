import { BarChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import { Anchor, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Dashboard } from './api';
import { countAxis } from '../../components/count-axis';

/** The caller's overdue actions by priority, as the service counts them; the link lists them. */
export function OverdueActionsChart({ overdue }: { overdue: Dashboard['overdue_actions'] }) {
  const data = [
    { priority: 'Critical', actions: overdue.critical },
    { priority: 'High', actions: overdue.high },
    { priority: 'Medium', actions: overdue.medium },
    { priority: 'Low', actions: overdue.low },
  ];
  if (overdue.total === 0) return <Text size="sm" c="dimmed" data-testid="overdue-actions">No action is overdue.</Text>;
  return (
    <Stack gap="xs" data-testid="overdue-actions">
      <figure style={{ margin: 0 }} aria-label={`${overdue.total} overdue actions: ${data.map((entry) => `${entry.priority} ${entry.actions}`).join(', ')}`}>
        <BarChart h={200} data={data} dataKey="priority" series={[{ name: 'actions', label: 'Overdue actions', color: 'red.8' }]} {...countAxis('Priority', 'Actions', Math.max(...data.map((entry) => entry.actions)))} />
      </figure>
      <Anchor component={Link} to="/actions?overdue_only=true" size="sm">List the {overdue.total} overdue actions</Anchor>
    </Stack>
  );
}
