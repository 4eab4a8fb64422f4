import { sql } from 'kysely';
import { updateOwnRow } from '../../../platform/db/own-rows.js';
import type { Executor } from '../../../platform/db/schema.js';
import type { RatingType } from '../../../platform/db/tables/bras.js';
import type { RiskRating } from '../risk-rating.js';

/** Scenario links, ratings and control links of a BRA (SQL only). */

export async function insertScenarioLink(
  db: Executor,
  enterpriseId: string,
  values: { bra_id: string; risk_scenario_id: string; included: boolean; created_by: string },
) {
  return db
    .insertInto('bra_risk_scenarios')
    .values({ enterprise_id: enterpriseId, ...values })
    .returning(['id', 'risk_scenario_id', 'included'])
    .executeTakeFirstOrThrow();
}

/**
 * The scenario links of one BRA, as `l`: every statement over them names the enterprise with the BRA, so a
 * link of another BRA or enterprise is never read through this one. The caller selects and narrows.
 */
export const scenarioLinksOf = (db: Executor, enterpriseId: string, braId: string) =>
  db.selectFrom('bra_risk_scenarios as l').where('l.enterprise_id', '=', enterpriseId).where('l.bra_id', '=', braId);

export async function findScenarioLink(db: Executor, enterpriseId: string, braId: string, linkId: string) {
  return scenarioLinksOf(db, enterpriseId, braId).select(['l.id', 'l.risk_scenario_id', 'l.included']).where('l.id', '=', linkId).executeTakeFirst();
}

export async function setScenarioIncluded(db: Executor, enterpriseId: string, linkId: string, included: boolean): Promise<void> {
  await updateOwnRow(db, 'bra_risk_scenarios', enterpriseId, linkId, { included, updated_at: sql<Date>`now()` }, ['id']);
}

const RATING_COLUMNS = [
  'id',
  'bra_risk_scenario_id',
  'rating_type',
  'impact_score',
  'likelihood_score',
  'risk_score',
  'risk_level',
  'justification',
  'created_by',
  'created_at',
  'superseded_at',
] as const;

/**
 * Marks the current rating of the link and type superseded and inserts the new one. The caller holds
 * the BRA's row lock, so two ratings of one link cannot interleave; bra_ratings_current_key is the wall
 * behind it. Returns the new rating and the id of the one it superseded.
 */
export async function recordRating(
  db: Executor,
  enterpriseId: string,
  values: { bra_id: string; bra_risk_scenario_id: string; rating_type: RatingType; justification: string | null; created_by: string } & RiskRating,
) {
  const superseded = await db
    .updateTable('bra_ratings')
    .set({ superseded_at: sql<Date>`now()` })
    .where('enterprise_id', '=', enterpriseId)
    .where('bra_risk_scenario_id', '=', values.bra_risk_scenario_id)
    .where('rating_type', '=', values.rating_type)
    .where('superseded_at', 'is', null)
    .returning(['id', 'risk_score'])
    .executeTakeFirst();
  const rating = await db
    .insertInto('bra_ratings')
    .values({ enterprise_id: enterpriseId, ...values })
    .returning(RATING_COLUMNS)
    .executeTakeFirstOrThrow();
  return { rating, supersededId: superseded?.id ?? null, supersededScore: superseded?.risk_score ?? null };
}

export async function listRatings(db: Executor, enterpriseId: string, braId: string, history: boolean) {
  let query = db.selectFrom('bra_ratings').select(RATING_COLUMNS).where('enterprise_id', '=', enterpriseId).where('bra_id', '=', braId);
  if (!history) query = query.where('superseded_at', 'is', null);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

export async function insertControlLink(
  db: Executor,
  enterpriseId: string,
  values: { bra_id: string; sub_control_id: string; bra_risk_scenario_id: string | null; created_by: string },
) {
  return db
    .insertInto('bra_controls')
    .values({ enterprise_id: enterpriseId, ...values })
    .returning(['id'])
    .executeTakeFirstOrThrow();
}

export async function findControlLink(db: Executor, enterpriseId: string, braId: string, linkId: string) {
  return db
    .selectFrom('bra_controls')
    .select(['id', 'sub_control_id', 'bra_risk_scenario_id'])
    .where('enterprise_id', '=', enterpriseId)
    .where('bra_id', '=', braId)
    .where('id', '=', linkId)
    .executeTakeFirst();
}

export async function deleteControlLink(db: Executor, enterpriseId: string, linkId: string): Promise<void> {
  await db.deleteFrom('bra_controls').where('enterprise_id', '=', enterpriseId).where('id', '=', linkId).execute();
}
