import type { RiskLevel } from '../../platform/db/tables/governance.js';
import { rateRisk } from '../bras/risk-rating.js';

/**
 * The dashboard's 5×5 risk heat maps, inherent and residual: every impact × likelihood cell (zeros
 * included) with its count, its score and band (D6.1), and the risk-register filter that lists exactly
 * its rows. Pure: the counts come grouped from SQL.
 */
export type RatingKind = 'inherent' | 'residual';

export interface CellCount {
  impact: number;
  likelihood: number;
  count: number;
}

export interface PlaceScope {
  legal_entity_id?: string | undefined;
  business_unit_id?: string | undefined;
}

export interface RiskHeatMapCell {
  impact_score: number;
  likelihood_score: number;
  risk_score: number;
  risk_level: RiskLevel;
  count: number;
  /** Query parameters of GET /risk-register that list this cell's rows. */
  register_filter: Record<string, string | number>;
  /** The same, as a query string. */
  register_query: string;
}

export interface RiskHeatMap {
  impact_levels: number[];
  likelihood_levels: number[];
  /** Impact descending (5 first, as the map is drawn top to bottom), likelihood ascending within. */
  cells: RiskHeatMapCell[];
  total: number;
}

export const SCORE_LEVELS = [1, 2, 3, 4, 5] as const;

export function registerFilterOf(kind: RatingKind, impact: number, likelihood: number, place: PlaceScope): Record<string, string | number> {
  return {
    ...(place.legal_entity_id !== undefined ? { legal_entity_id: place.legal_entity_id } : {}),
    ...(place.business_unit_id !== undefined ? { business_unit_id: place.business_unit_id } : {}),
    [`${kind}_impact`]: impact,
    [`${kind}_likelihood`]: likelihood,
  };
}

export function shapeRiskHeatMap(kind: RatingKind, counts: readonly CellCount[], place: PlaceScope): RiskHeatMap {
  const countOf = new Map(counts.map((c) => [`${c.impact}:${c.likelihood}`, c.count]));
  const cells: RiskHeatMapCell[] = [];
  for (const impact of [...SCORE_LEVELS].reverse()) {
    for (const likelihood of SCORE_LEVELS) {
      const { risk_score, risk_level } = rateRisk(impact, likelihood);
      const register_filter = registerFilterOf(kind, impact, likelihood, place);
      cells.push({
        impact_score: impact,
        likelihood_score: likelihood,
        risk_score,
        risk_level,
        count: countOf.get(`${impact}:${likelihood}`) ?? 0,
        register_filter,
        register_query: new URLSearchParams(Object.entries(register_filter).map(([k, v]): [string, string] => [k, String(v)])).toString(),
      });
    }
  }
  return { impact_levels: [...SCORE_LEVELS], likelihood_levels: [...SCORE_LEVELS], cells, total: cells.reduce((sum, cell) => sum + cell.count, 0) };
}
