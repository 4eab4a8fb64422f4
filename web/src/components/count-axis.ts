/**
 * What every count chart of the dashboard shares: whole-number ticks at an even step from 0 (a count of 2.5
 * BRAs means nothing, and the chart library's own ticks bunch up near the top) and named axes.
 */
export function countTicks(highest: number): number[] {
  const step = Math.max(1, Math.ceil(highest / 4));
  const top = Math.max(step, Math.ceil(highest / step) * step);
  return Array.from({ length: top / step + 1 }, (_, index) => index * step);
}

export const countAxis = (xAxisLabel: string, yAxisLabel: string, highest: number) => {
  const ticks = countTicks(highest);
  return {
    xAxisLabel,
    yAxisLabel,
    yAxisProps: { allowDecimals: false, domain: [0, ticks[ticks.length - 1]!], ticks },
    tickLine: 'y' as const,
  };
};
