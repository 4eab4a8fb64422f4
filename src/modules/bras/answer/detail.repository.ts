import { sql, type SelectQueryBuilder } from 'kysely';
import type { DB, Executor } from '../../../platform/db/schema.js';
import { aboveAppetiteSql } from '../../governance/appetite-rules.js';
import { currentRatingJoin } from '../current-rating.js';
import type { BraRiskScenariosTable } from '../../../platform/db/tables/bras.js';
import type { SummaryCounts } from './summary.js';

/**
 * What the get-BRA adds to the BRA row: scenarios with their current ratings, control links with the
 * sub-controls' live results, and the summary counts. One statement each, whatever the number of
 * scenarios or controls (no query per element).
 */

/**
 * Scenario links (`l`) with their current ratings: `i` the inherent one, `r` the residual one, each null
 * when missing. Served by bra_ratings_current_key (one current rating per link and type).
 */
function withCurrentRatings(links: SelectQueryBuilder<DB & { l: BraRiskScenariosTable }, 'l', {}>) {
  return links
    .leftJoin('bra_ratings as i', (join) => join.on(currentRatingJoin('i', 'inherent')))
    .leftJoin('bra_ratings as r', (join) => join.on(currentRatingJoin('r', 'residual')));
}

/** The links of one BRA (`alias`: scenario links or control links), or only the one asked for; newest first. */
function ofBra<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>, alias: 'l' | 'c', enterpriseId: string, braId: string, linkId?: string) {
  const column = (name: string) => sql.ref(`${alias}.${name}`);
  return query
    .where(column('enterprise_id'), '=', enterpriseId)
    .where(column('bra_id'), '=', braId)
    .$if(linkId !== undefined, (links) => links.where(column('id'), '=', linkId!))
    .orderBy(column('created_at'), 'desc')
    .orderBy(column('id'), 'desc');
}

/** Scenario links with the catalogue name and the current inherent and residual ratings (null when missing). */
export async function listScenarioRows(db: Executor, enterpriseId: string, braId: string, linkId?: string) {
  const links = withCurrentRatings(db.selectFrom('bra_risk_scenarios as l'))
    .innerJoin('risk_scenarios as rs', (join) => join.onRef('rs.enterprise_id', '=', 'l.enterprise_id').onRef('rs.id', '=', 'l.risk_scenario_id'))
    .select([
      'l.id',
      'l.risk_scenario_id',
      'rs.name',
      'rs.category',
      'l.included',
      'i.impact_score as inherent_impact',
      'i.likelihood_score as inherent_likelihood',
      'i.risk_score as inherent_score',
      'i.risk_level as inherent_level',
      'i.justification as inherent_justification',
      'r.impact_score as residual_impact',
      'r.likelihood_score as residual_likelihood',
      'r.risk_score as residual_score',
      'r.risk_level as residual_level',
      'r.justification as residual_justification',
      'l.previous_residual_impact',
      'l.previous_residual_likelihood',
      'l.previous_residual_score',
      'l.previous_residual_level',
    ]);
  return ofBra(links, 'l', enterpriseId, braId, linkId).execute();
}
export type ScenarioRow = Awaited<ReturnType<typeof listScenarioRows>>[number];

/**
 * Control links (BRA-wide, or of one scenario link) with the live ToD, ToE and total effectiveness of the sub-control and the name of its key
 * control. The control library belongs to the controls module; this is a read-only join of its tables,
 * so that one statement serves any number of links and the values are always current.
 */
export async function listControlRows(db: Executor, enterpriseId: string, braId: string, linkId?: string) {
  const links = db
    .selectFrom('bra_controls as c')
    .innerJoin('sub_controls as sc', (join) => join.onRef('sc.enterprise_id', '=', 'c.enterprise_id').onRef('sc.id', '=', 'c.sub_control_id'))
    .innerJoin('key_controls as kc', (join) => join.onRef('kc.enterprise_id', '=', 'sc.enterprise_id').onRef('kc.id', '=', 'sc.key_control_id'))
    .select([
      'c.id',
      'c.bra_risk_scenario_id',
      'sc.key_control_id',
      'kc.name as key_control_name',
      'c.sub_control_id',
      'sc.name as sub_control_name',
      'sc.tod',
      'sc.toe',
      'sc.total_effectiveness',
    ]);
  return ofBra(links, 'c', enterpriseId, braId, linkId).execute();
}

/**
 * D6.8 / D10.6 counts over the included links, in one statement: both current ratings present →
 * assessed; current residual score above the threshold (governance's comparison) → above appetite. A null
 * threshold (no appetite) counts nothing above it.
 */
export async function summaryCounts(db: Executor, enterpriseId: string, braId: string, threshold: number | null): Promise<SummaryCounts> {
  const row = await withCurrentRatings(db.selectFrom('bra_risk_scenarios as l'))
    .select([
      sql<number>`count(*)`.as('included'),
      sql<number>`count(*) filter (where i.id is not null and r.id is not null)`.as('assessed'),
      sql<number>`count(*) filter (where ${aboveAppetiteSql('r.risk_score', sql`${threshold}::integer`)})`.as('above_appetite'),
    ])
    .where('l.enterprise_id', '=', enterpriseId)
    .where('l.bra_id', '=', braId)
    .where('l.included', '=', true)
    .executeTakeFirstOrThrow();
  return { included: Number(row.included), assessed: Number(row.assessed), above_appetite: Number(row.above_appetite) };
}
