import { LineChart } from '@mantine/charts';
import '@mantine/charts/styles.css';

/**
 * Risk scores (1–25) over periods as lines, on a fixed 0–25 axis with integer ticks and axis titles, inside a
 * figure whose label says the same in words for screen readers.
 */
export function ScoreLineChart({ data, series, periodTitle, scoreTitle, label, testId, height = 220 }: {
  data: Record<string, string | number | null>[];
  series: { name: string; label: string; color: string }[];
  periodTitle: string;
  scoreTitle: string;
  label: string;
  testId: string;
  height?: number;
}) {
  return (
    <figure style={{ margin: 0 }} data-testid={testId} aria-label={label}>
      <LineChart
        h={height}
        data={data}
        dataKey="period"
        series={series}
        xAxisLabel={periodTitle}
        yAxisLabel={scoreTitle}
        yAxisProps={{ domain: [0, 25], ticks: [0, 5, 10, 15, 20, 25], allowDecimals: false }}
        withLegend
        connectNulls
      />
    </figure>
  );
}
