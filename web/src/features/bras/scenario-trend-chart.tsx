import { Stack, Text } from '@mantine/core';
import { QueryState } from '../../components/page-states';
import { ScoreLineChart } from '../../components/score-line-chart';
import { useScenarioTrend, type ScenarioTrend } from './history-api';

/** The points as the chart plots them: one per approved BRA, oldest approval first, labelled by period and BRA. */
export function trendSeries(trend: ScenarioTrend) {
  return trend.points.map((point) => ({
    period: `${point.bra.period} · ${point.bra.name}`,
    inherent: point.inherent_rating?.risk_score ?? null,
    residual: point.residual_rating?.risk_score ?? null,
  }));
}

/** One catalogue scenario's inherent and residual scores across the approved BRAs the caller sees. */
export function ScenarioTrendChart({ riskScenarioId }: { riskScenarioId: string }) {
  const trend = useScenarioTrend(riskScenarioId);
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>Across approved periods</Text>
      <QueryState query={trend}>
        {(content) => {
          const data = trendSeries(content);
          if (data.length === 0) return <Text size="sm" c="dimmed" data-testid="scenario-trend">No approved BRA rates this scenario yet: the trend starts with the first approval.</Text>;
          return (
            <ScoreLineChart
              testId="scenario-trend"
              height={200}
              data={data}
              series={[{ name: 'inherent', label: 'Inherent score', color: 'orange.9' }, { name: 'residual', label: 'Residual score', color: 'blue.8' }]}
              periodTitle="Approved period"
              scoreTitle="Risk score (1–25)"
              label={`Scores of ${content.risk_scenario.name} per approved period: ${data.map((point) => `${point.period} inherent ${point.inherent ?? 'not rated'}, residual ${point.residual ?? 'not rated'}`).join('; ')}`}
            />
          );
        }}
      </QueryState>
    </Stack>
  );
}
