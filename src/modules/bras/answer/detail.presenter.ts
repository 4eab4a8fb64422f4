import type { RiskLevel } from '../../../platform/db/tables/governance.js';
import type { BraNamedRow } from '../bras.repository.js';
import type { listControlRows, ScenarioRow } from './detail.repository.js';
import type { BraView, ControlView, ScenarioView } from '../bras.schemas.js';

/** Rows to the wire shapes of 2.1 (field names are already the contract's; only nesting is added). */

export function toBraView(row: BraNamedRow): BraView {
  const { enterprise_id: _enterprise, legal_entity_name, business_unit_name, ...bra } = row;
  return {
    ...bra,
    legal_entity: { id: row.legal_entity_id, name: legal_entity_name },
    business_unit: row.business_unit_id === null ? null : { id: row.business_unit_id, name: business_unit_name ?? '' },
  };
}

function rating(impact: number | null, likelihood: number | null, score: number | null, level: RiskLevel | null, justification: string | null) {
  if (impact === null || likelihood === null || score === null || level === null) return null;
  return { impact_score: impact, likelihood_score: likelihood, risk_score: score, risk_level: level, justification };
}

/** A roll-forward's reference rating (the four columns are all set or all null: a CHECK). */
function previousRating(row: ScenarioRow): ScenarioView['previous_residual_rating'] {
  const { previous_residual_impact: impact, previous_residual_likelihood: likelihood, previous_residual_score: score, previous_residual_level: level } = row;
  if (impact === null || likelihood === null || score === null || level === null) return null;
  return { impact_score: impact, likelihood_score: likelihood, risk_score: score, risk_level: level };
}

export function toScenarioView(row: ScenarioRow): ScenarioView {
  return {
    id: row.id,
    risk_scenario_id: row.risk_scenario_id,
    name: row.name,
    category: row.category,
    included: row.included,
    inherent_rating: rating(row.inherent_impact, row.inherent_likelihood, row.inherent_score, row.inherent_level, row.inherent_justification),
    residual_rating: rating(row.residual_impact, row.residual_likelihood, row.residual_score, row.residual_level, row.residual_justification),
    previous_residual_rating: previousRating(row),
  };
}

export function toControlView(row: Awaited<ReturnType<typeof listControlRows>>[number]): ControlView {
  return { ...row };
}
