import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { RatingType } from '../../platform/db/tables/bras.js';

/**
 * A scenario link's current rating of a type: its rating of that type that nothing has superseded (recording a
 * rating supersedes the one before, so there is at most one: bra_ratings_current_key). The join condition of
 * `bra_ratings` as `alias` to the link `link`, for the statements that read ratings with their links (the BRA's
 * answer, its roll-forward, the register, a scenario's trend).
 */
export function currentRatingJoin(alias: string, type: RatingType, link = 'l'): RawBuilder<SqlBool> {
  const rating = (column: string) => sql.ref(`${alias}.${column}`);
  return sql<SqlBool>`${rating('enterprise_id')} = ${sql.ref(`${link}.enterprise_id`)} and ${rating('bra_risk_scenario_id')} = ${sql.ref(`${link}.id`)}
    and ${rating('rating_type')} = ${sql.lit(type)} and ${rating('superseded_at')} is null`;
}
