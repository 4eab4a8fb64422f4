import { Text } from '@mantine/core';
import { ScoreLineChart } from '../../components/score-line-chart';
import type { Dashboard } from './api';

/** Per approval period, oldest first: the average and the highest residual score of the approved BRAs. */
export function ResidualTrendChart({ trend }: { trend: Dashboard['trend'] }) {
  if (trend.length === 0) return <Text size="sm" c="dimmed" data-testid="residual-trend">No approved period yet: the trend starts with the first approval.</Text>;
  return (
    <ScoreLineChart
      testId="residual-trend"
      data={trend.map((period) => ({ period: period.period, average: period.average_residual_score, highest: period.max_residual_score }))}
      series={[{ name: 'average', label: 'Average residual', color: 'blue.8' }, { name: 'highest', label: 'Highest residual', color: 'red.8' }]}
      periodTitle="Approval period"
      scoreTitle="Residual score (1–25)"
      label={`Residual score per period: ${trend.map((period) => `${period.period} average ${period.average_residual_score ?? 'none'}, highest ${period.max_residual_score ?? 'none'}`).join('; ')}`}
    />
  );
}
