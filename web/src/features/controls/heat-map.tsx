import { Box, Text, UnstyledButton } from '@mantine/core';
import { effectivenessColor } from '../../components/level-colors';
import type { HeatMap } from './api';

/**
 * The 5×5 control heat map: ToD A–E down, ToE 1–5 across, each cell coloured by the effectiveness label
 * the service gives it (the 3.5 matrix) and showing its count. A click opens the cell's sub-controls.
 */
export function ControlHeatMap({ heatMap, onOpen }: { heatMap: HeatMap; onOpen: (cell: { tod: string; toe: string }) => void }) {
  const rows = heatMap.data as Record<string, Record<string, { count: number; effectiveness: string }>>;
  return (
    <Box role="group" aria-label="Control heat map, Test of Design by Test of Effectiveness">
      <Box style={{ display: 'grid', gridTemplateColumns: 'auto repeat(5, minmax(44px, 1fr))', gap: 4 }}>
        <span />
        {heatMap.toe_levels.map((toe) => (
          <Text key={toe} size="xs" c="dimmed" ta="center">
            ToE {toe}
          </Text>
        ))}
        {heatMap.tod_levels.map((tod) => [
          <Text key={tod} size="xs" c="dimmed" pr={4} style={{ alignSelf: 'center' }}>
            ToD {tod}
          </Text>,
          ...heatMap.toe_levels.map((toe) => {
            const cell = rows[tod]?.[toe] ?? { count: 0, effectiveness: '' };
            const color = effectivenessColor(cell.effectiveness);
            return (
              <UnstyledButton
                key={`${tod}${toe}`}
                data-testid={`heat-${tod}-${toe}`}
                data-count={cell.count}
                aria-label={`ToD ${tod}, ToE ${toe}: ${cell.effectiveness}, ${cell.count} sub-control${cell.count === 1 ? '' : 's'}`}
                title={cell.effectiveness}
                onClick={() => onOpen({ tod, toe })}
                style={{
                  height: 44,
                  borderRadius: 4,
                  textAlign: 'center',
                  fontWeight: 700,
                  // Light shades with black text: readable (AA) whatever the colour.
                  color: 'black',
                  background: `var(--mantine-color-${color}-${cell.count > 0 ? 4 : 1})`,
                  border: cell.count > 0 ? '2px solid black' : '1px solid var(--mantine-color-gray-4)',
                }}
              >
                {cell.count}
              </UnstyledButton>
            );
          }),
        ])}
      </Box>
      <Text size="xs" c="dimmed" mt={4}>
        {heatMap.total_assessed} assessed sub-control{heatMap.total_assessed === 1 ? '' : 's'}
      </Text>
    </Box>
  );
}
