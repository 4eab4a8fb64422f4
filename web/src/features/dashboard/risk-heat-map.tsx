import { Box, Text, UnstyledButton } from '@mantine/core';
import { Link } from 'react-router';
import { riskLevelColor } from '../../components/level-colors';
import type { RiskHeatMap as RiskHeatMapData } from './api';

/**
 * A 5×5 risk heat map (impact down, likelihood across), inherent or residual: each cell coloured by the
 * band the service gives it, showing its count, and linking to the register with the filter the service
 * gives for exactly that cell (`register_query`). Rows follow the order of the answer's cells.
 */
export function RiskHeatMap({ kind, heatMap }: { kind: 'inherent' | 'residual'; heatMap: RiskHeatMapData }) {
  const rows: (typeof heatMap.cells)[] = [];
  for (const cell of heatMap.cells) {
    const row = rows.find((candidate) => candidate[0]!.impact_score === cell.impact_score);
    if (row) row.push(cell);
    else rows.push([cell]);
  }
  const name = kind === 'inherent' ? 'Inherent' : 'Residual';
  return (
    <Box role="group" aria-label={`${name} risk heat map, impact by likelihood`} data-testid={`risk-heat-map-${kind}`}>
      <Box style={{ display: 'grid', gridTemplateColumns: 'auto repeat(5, minmax(44px, 1fr))', gap: 4 }}>
        <span />
        {rows[0]?.map((cell) => (
          <Text key={cell.likelihood_score} size="xs" c="dimmed" ta="center">
            L {cell.likelihood_score}
          </Text>
        ))}
        {rows.map((row) => [
          <Text key={`impact-${row[0]!.impact_score}`} size="xs" c="dimmed" pr={4} style={{ alignSelf: 'center' }}>
            I {row[0]!.impact_score}
          </Text>,
          ...row.map((cell) => (
            <UnstyledButton
              component={Link}
              to={`/risk-register?${cell.register_query}`}
              key={`${cell.impact_score}-${cell.likelihood_score}`}
              data-testid={`risk-${kind}-${cell.impact_score}-${cell.likelihood_score}`}
              data-count={cell.count}
              aria-label={`${name} impact ${cell.impact_score}, likelihood ${cell.likelihood_score}: score ${cell.risk_score}, ${cell.risk_level}, ${cell.count} scenario${cell.count === 1 ? '' : 's'}`}
              title={`${cell.risk_score} · ${cell.risk_level}`}
              style={{
                display: 'flex',
                alignItems: 'center',
                justifyContent: 'center',
                height: 44,
                borderRadius: 4,
                fontWeight: 700,
                // Light shades with black text: readable (AA) whatever the colour.
                color: 'black',
                background: `var(--mantine-color-${riskLevelColor(cell.risk_level)}-${cell.count > 0 ? 4 : 1})`,
                border: cell.count > 0 ? '2px solid black' : '1px solid var(--mantine-color-gray-4)',
              }}
            >
              {cell.count}
            </UnstyledButton>
          )),
        ])}
      </Box>
      <Text size="xs" c="dimmed" mt={4}>
        {heatMap.total} scenario{heatMap.total === 1 ? '' : 's'} with {kind === 'inherent' ? 'an inherent' : 'a residual'} rating
      </Text>
    </Box>
  );
}
