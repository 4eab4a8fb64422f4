import type { Principal } from '../../platform/auth/principal.js';
import type { BraStatus } from '../../platform/db/tables/bras.js';
import type { RiskLevel } from '../../platform/db/tables/governance.js';
import { canAcceptRisksOn } from '../bras/bras.policy.js';
import type { RegisterRow } from './register.repository.js';
import type { RegisterRowView } from './register.schemas.js';
import { REGISTER_COLUMNS } from './register.schemas.js';

/** Register rows to the wire (nested as the BRA answers are) and to the export's flat cells. */

function rating(impact: number | null, likelihood: number | null, score: number | null, level: RiskLevel | null) {
  if (impact === null || likelihood === null || score === null || level === null) return null;
  return { impact_score: impact, likelihood_score: likelihood, risk_score: score, risk_level: level };
}

/** A row as the caller reads it: with what the caller may do to it (the BRA's own ability, bras.policy.ts). */
export function toRegisterRowView(row: RegisterRow, caller: Principal): RegisterRowView {
  return {
    legal_entity: { id: row.legal_entity_id, name: row.legal_entity_name },
    business_unit: row.business_unit_id === null ? null : { id: row.business_unit_id, name: row.business_unit_name ?? '' },
    bra: {
      id: row.bra_id,
      name: row.bra_name,
      period: row.bra_period,
      assessor: row.bra_assessor,
      status: row.bra_status as RegisterRowView['bra']['status'],
      approved_at: row.bra_approved_at,
      live: row.live,
    },
    scenario: { id: row.scenario_link_id, risk_scenario_id: row.risk_scenario_id, name: row.scenario_name, category: row.category },
    inherent_rating: rating(row.inherent_impact, row.inherent_likelihood, row.inherent_score, row.inherent_level),
    residual_rating: rating(row.residual_impact, row.residual_likelihood, row.residual_score, row.residual_level),
    appetite_threshold: row.appetite_threshold,
    above_appetite: row.above_appetite,
    acceptance_id: row.acceptance_id,
    accepted_until: row.accepted_until,
    abilities: { accept_risks: canAcceptRisksOn(caller, { status: row.bra_status as BraStatus }) },
    control_effectiveness: row.control_effectiveness as RegisterRowView['control_effectiveness'],
    open_actions: row.open_actions,
    overdue_actions: row.overdue_actions,
  };
}

type Cell = string | number | boolean | null;

/** One export record, in REGISTER_COLUMNS order: text stays text, scores stay numbers. */
export function toRegisterCells(row: RegisterRow): Cell[] {
  const cells: Record<(typeof REGISTER_COLUMNS)[number], Cell> = {
    legal_entity: row.legal_entity_name,
    business_unit: row.business_unit_name,
    bra_id: row.bra_id,
    bra_name: row.bra_name,
    bra_period: row.bra_period,
    bra_status: row.bra_status,
    bra_approved_at: row.bra_approved_at === null ? null : new Date(row.bra_approved_at).toISOString(),
    live: row.live,
    scenario_id: row.scenario_link_id,
    scenario_name: row.scenario_name,
    category: row.category,
    inherent_impact: row.inherent_impact,
    inherent_likelihood: row.inherent_likelihood,
    inherent_score: row.inherent_score,
    inherent_level: row.inherent_level,
    residual_impact: row.residual_impact,
    residual_likelihood: row.residual_likelihood,
    residual_score: row.residual_score,
    residual_level: row.residual_level,
    appetite_threshold: row.appetite_threshold,
    above_appetite: row.above_appetite,
    control_effectiveness: row.control_effectiveness,
    open_actions: Number(row.open_actions),
    overdue_actions: Number(row.overdue_actions),
    accepted_until: row.accepted_until,
  };
  return REGISTER_COLUMNS.map((column) => cells[column]);
}
