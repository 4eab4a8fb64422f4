import { BarChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import { countAxis } from '../../components/count-axis';
import type { Effectiveness } from './api';

/** The effectiveness summary as bars, one per label the service counts. */
export function EffectivenessChart({ summary }: { summary: Effectiveness }) {
  const data = [
    { label: 'Highly', count: summary.highly_effective },
    { label: 'Effective', count: summary.effective },
    { label: 'Moderate', count: summary.moderately_effective },
    { label: 'Less', count: summary.less_effective },
    { label: 'Not', count: summary.not_effective },
    { label: 'Untested', count: summary.not_assessed },
  ];
  return (
    <figure style={{ margin: 0 }} aria-label={`Effectiveness of ${summary.total} sub-controls: ${data.map((entry) => `${entry.label} ${entry.count}`).join(', ')}`}>
      <BarChart h={220} data={data} dataKey="label" series={[{ name: 'count', label: 'Sub-controls', color: 'blue.7' }]} {...countAxis('Total effectiveness', 'Sub-controls', Math.max(...data.map((entry) => entry.count)))} />
    </figure>
  );
}
