import type { TestOfDesign, TestOfEffectiveness, TotalEffectiveness } from '../../platform/db/tables/controls.js';
import { EFFECTIVENESS_MATRIX, TOD_LEVELS, TOE_LEVELS } from './effectiveness-matrix.js';

/** One grouped row of the heat-map query: how many assessed sub-controls have this ToD and ToE. */
export interface CellCount {
  tod: TestOfDesign;
  toe: TestOfEffectiveness;
  count: number;
}

export interface HeatMapCell {
  count: number;
  effectiveness: TotalEffectiveness;
}

export interface HeatMap {
  tod_levels: TestOfDesign[];
  toe_levels: TestOfEffectiveness[];
  data: Record<TestOfDesign, Record<TestOfEffectiveness, HeatMapCell>>;
  total_assessed: number;
}

/**
 * The heat map of 4.3 from the grouped counts: always all 25 cells (zeros included, D7.1), each labelled
 * from the 3.5 matrix; `total_assessed` is the sum of the cells.
 */
export function shapeHeatMap(counts: readonly CellCount[]): HeatMap {
  const data = {} as HeatMap['data'];
  for (const tod of TOD_LEVELS) {
    const row = {} as Record<TestOfEffectiveness, HeatMapCell>;
    for (const toe of TOE_LEVELS) row[toe] = { count: 0, effectiveness: EFFECTIVENESS_MATRIX[tod][toe] };
    data[tod] = row;
  }
  let totalAssessed = 0;
  for (const { tod, toe, count } of counts) {
    data[tod][toe].count += count;
    totalAssessed += count;
  }
  return { tod_levels: [...TOD_LEVELS], toe_levels: [...TOE_LEVELS], data, total_assessed: totalAssessed };
}
