import { LineChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import { Text } from '@mantine/core';
import type { Dashboard } from './api';

/** Per approval period, oldest first: the average and the highest residual score of the approved BRAs. */
export function ResidualTrendChart({ trend }: { trend: Dashboard['trend'] }) {
  if (trend.length === 0) return <Text size="sm" c="dimmed" data-testid="residual-trend">No approved period yet: the trend starts with the first approval.</Text>;
  const data = trend.map((period) => ({ period: period.period, average: period.average_residual_score, highest: period.max_residual_score }));
  return (
    <figure
      style={{ margin: 0 }}
      data-testid="residual-trend"
      aria-label={`Residual score per period: ${trend.map((period) => `${period.period} average ${period.average_residual_score ?? 'none'}, highest ${period.max_residual_score ?? 'none'}`).join('; ')}`}
    >
      <LineChart
        h={220}
        data={data}
        dataKey="period"
        series={[{ name: 'average', label: 'Average residual', color: 'blue.8' }, { name: 'highest', label: 'Highest residual', color: 'red.8' }]}
        xAxisLabel="Approval period"
        yAxisLabel="Residual score (1–25)"
        yAxisProps={{ domain: [0, 25], ticks: [0, 5, 10, 15, 20, 25], allowDecimals: false }}
        withLegend
        connectNulls
      />
    </figure>
  );
}
