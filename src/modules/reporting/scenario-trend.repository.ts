import { sql, type Expression, type SqlBool } from 'kysely';
import type { Executor } from '../../platform/db/schema.js';
import { approvedBraSql } from '../bras/bras.lifecycle.js';
import { currentRatingJoin } from '../bras/current-rating.js';

/**
 * A catalogue scenario in every approved BRA the caller sees (the scope, a predicate over `b`), with its
 * current inherent and residual ratings there, by approval date. Ratings of an approved BRA never change
 * (nothing is editable after approval), so its live rows are what its approval snapshot holds. One
 * statement: bra_risk_scenarios_catalogue_idx finds the links, bra_ratings_current_key their ratings.
 */
export async function scenarioTrendRows(
  db: Executor,
  enterpriseId: string,
  riskScenarioId: string,
  scope: Expression<SqlBool>,
  place: { legal_entity_id?: string | undefined; business_unit_id?: string | undefined },
) {
  let query = db
    .selectFrom('bra_risk_scenarios as l')
    .innerJoin('bras as b', (join) => join.onRef('b.enterprise_id', '=', 'l.enterprise_id').onRef('b.id', '=', 'l.bra_id'))
    .innerJoin('legal_entities as le', (join) => join.onRef('le.enterprise_id', '=', 'b.enterprise_id').onRef('le.id', '=', 'b.legal_entity_id'))
    .leftJoin('business_units as bu', (join) => join.onRef('bu.enterprise_id', '=', 'b.enterprise_id').onRef('bu.id', '=', 'b.business_unit_id'))
    .leftJoin('bra_ratings as i', (join) => join.on(currentRatingJoin('i', 'inherent')))
    .leftJoin('bra_ratings as r', (join) => join.on(currentRatingJoin('r', 'residual')))
    .select([
      'b.id as bra_id',
      'b.name as bra_name',
      'b.period',
      'b.legal_entity_id',
      'le.name as legal_entity_name',
      'b.business_unit_id',
      'bu.name as business_unit_name',
      'b.approved_at',
      'b.snapshot_id',
      'b.rolled_from_bra_id',
      'l.id as bra_risk_scenario_id',
      'i.impact_score as inherent_impact',
      'i.likelihood_score as inherent_likelihood',
      'i.risk_score as inherent_score',
      'i.risk_level as inherent_level',
      'r.impact_score as residual_impact',
      'r.likelihood_score as residual_likelihood',
      'r.risk_score as residual_score',
      'r.risk_level as residual_level',
    ])
    .where('l.enterprise_id', '=', enterpriseId)
    .where('l.risk_scenario_id', '=', riskScenarioId)
    .where('l.included', '=', true)
    .where(approvedBraSql('b'))
    .where(scope);
  if (place.legal_entity_id !== undefined) query = query.where('b.legal_entity_id', '=', place.legal_entity_id);
  if (place.business_unit_id !== undefined) query = query.where('b.business_unit_id', '=', place.business_unit_id);
  return query.orderBy(sql`b.approved_at`, 'asc').orderBy('b.id', 'asc').execute();
}
export type ScenarioTrendRow = Awaited<ReturnType<typeof scenarioTrendRows>>[number];
