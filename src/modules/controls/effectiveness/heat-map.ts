import type { TestOfDesign, TestOfEffectiveness, TotalEffectiveness } from '../../../platform/db/tables/controls.js';
import { EFFECTIVENESS_MATRIX, TOD_LEVELS, TOE_LEVELS } from '../effectiveness-matrix.js';

/** One grouped row of the heat-map query: how many assessed sub-controls have this ToD and ToE. */
export interface CellCount {
  tod: TestOfDesign;
  toe: TestOfEffectiveness;
  count: number;
}

/** The GET /controls/sub-controls query that lists exactly the sub-controls a cell counts. */
export interface CellFilter {
  tod: TestOfDesign;
  toe: TestOfEffectiveness;
  legal_entity_id?: string;
  business_unit_id?: string;
  bra_id?: string;
  archived?: true;
}

export interface HeatMapCell {
  count: number;
  effectiveness: TotalEffectiveness;
  filter: CellFilter;
}

/** The scope the heat map was asked for, carried into each cell's filter. */
export interface HeatMapScope {
  legal_entity_id?: string | undefined;
  business_unit_id?: string | undefined;
  bra_id?: string | undefined;
  archived?: boolean | undefined;
}

export interface HeatMap {
  tod_levels: TestOfDesign[];
  toe_levels: TestOfEffectiveness[];
  data: Record<TestOfDesign, Record<TestOfEffectiveness, HeatMapCell>>;
  total_assessed: number;
}

/** The scope's filters that a cell's list must repeat; absent ones are left out, not sent empty. */
function scopeFilter(scope: HeatMapScope): Omit<CellFilter, 'tod' | 'toe'> {
  const filter: Omit<CellFilter, 'tod' | 'toe'> = {};
  if (scope.legal_entity_id !== undefined) filter.legal_entity_id = scope.legal_entity_id;
  if (scope.business_unit_id !== undefined) filter.business_unit_id = scope.business_unit_id;
  if (scope.bra_id !== undefined) filter.bra_id = scope.bra_id;
  if (scope.archived === true) filter.archived = true;
  return filter;
}

/**
 * The heat map of 4.3 from the grouped counts: always all 25 cells (zeros included, D7.1), each labelled
 * from the 3.5 matrix and carrying the sub-control list filter that lists its sub-controls; `total_assessed`
 * is the sum of the cells.
 */
export function shapeHeatMap(counts: readonly CellCount[], scope: HeatMapScope = {}): HeatMap {
  const data = {} as HeatMap['data'];
  const common = scopeFilter(scope);
  for (const tod of TOD_LEVELS) {
    const row = {} as Record<TestOfEffectiveness, HeatMapCell>;
    for (const toe of TOE_LEVELS) row[toe] = { count: 0, effectiveness: EFFECTIVENESS_MATRIX[tod][toe], filter: { tod, toe, ...common } };
    data[tod] = row;
  }
  let totalAssessed = 0;
  for (const { tod, toe, count } of counts) {
    data[tod][toe].count += count;
    totalAssessed += count;
  }
  return { tod_levels: [...TOD_LEVELS], toe_levels: [...TOE_LEVELS], data, total_assessed: totalAssessed };
}
