/**
 * What every count chart of the dashboard shares: whole-number ticks (a count of 2.5 BRAs means nothing) and
 * named axes, as Mantine charts take them.
 */
export const countAxis = (xAxisLabel: string, yAxisLabel: string) => ({
  xAxisLabel,
  yAxisLabel,
  yAxisProps: { allowDecimals: false },
  tickLine: 'y' as const,
});
