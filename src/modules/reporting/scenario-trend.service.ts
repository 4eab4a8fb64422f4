import type { Caller } from '../../platform/auth/principal.js';
import type { Executor } from '../../platform/db/schema.js';
import { notFound } from '../../platform/errors/app-error.js';
import { findRiskScenario } from '../risk-scenarios/risk-scenarios.repository.js';
import { checkPlaceFilter } from './place-filter.js';
import { registerScope, requireRegisterReader } from './reporting.policy.js';
import { scenarioTrendRows, type ScenarioTrendRow } from './scenario-trend.repository.js';
import type { ScenarioTrendQuery, ScenarioTrendView, TrendPoint } from './scenario-trend.schemas.js';

type Prefix = 'inherent' | 'residual';
function rating(row: ScenarioTrendRow, prefix: Prefix): TrendPoint['inherent_rating'] {
  const [impact, likelihood, score, level] = [row[`${prefix}_impact`], row[`${prefix}_likelihood`], row[`${prefix}_score`], row[`${prefix}_level`]];
  if (impact === null || likelihood === null || score === null || level === null) return null;
  return { impact_score: impact, likelihood_score: likelihood, risk_score: score, risk_level: level };
}

function toPoint(row: ScenarioTrendRow): TrendPoint {
  return {
    bra: { id: row.bra_id, name: row.bra_name, period: row.period, approved_at: row.approved_at ?? new Date(0), snapshot_id: row.snapshot_id, rolled_from_bra_id: row.rolled_from_bra_id },
    legal_entity: { id: row.legal_entity_id, name: row.legal_entity_name },
    business_unit: row.business_unit_id === null ? null : { id: row.business_unit_id, name: row.business_unit_name ?? '' },
    bra_risk_scenario_id: row.bra_risk_scenario_id,
    inherent_rating: rating(row, 'inherent'),
    residual_rating: rating(row, 'residual'),
  };
}

/** A catalogue scenario's trend (reporting.scenario_trend): the register's reader rule, place filter and scope. */
export function createScenarioTrendService({ db }: { db: Executor }) {
  return {
    async trend(caller: Caller, riskScenarioId: string, query: ScenarioTrendQuery): Promise<ScenarioTrendView> {
      requireRegisterReader(caller);
      const scenario = await findRiskScenario(db, caller.enterpriseId, riskScenarioId);
      if (scenario === undefined) throw notFound('Risk scenario');
      await checkPlaceFilter(db, caller, query);
      const rows = await scenarioTrendRows(db, caller.enterpriseId, scenario.id, registerScope(caller), query);
      return { risk_scenario: { id: scenario.id, name: scenario.name, category: scenario.category }, points: rows.map(toPoint) };
    },
  };
}

export type ScenarioTrendService = ReturnType<typeof createScenarioTrendService>;
