import type { Executor } from '../../../platform/db/schema.js';
import { scenarioLinksOf } from '../assessment/content.repository.js';

/** What the moves of a BRA read (SQL only). */

/** Included links lacking a current inherent or residual rating: what blocks approval (D6.7). */
export async function unratedIncludedLinks(db: Executor, enterpriseId: string, braId: string): Promise<string[]> {
  const rows = await scenarioLinksOf(db, enterpriseId, braId)
    .select('l.id')
    .where('l.included', '=', true)
    .where((eb) =>
      eb.or(
        (['inherent', 'residual'] as const).map((type) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('bra_ratings as x')
                .select('x.id')
                .whereRef('x.enterprise_id', '=', 'l.enterprise_id')
                .whereRef('x.bra_risk_scenario_id', '=', 'l.id')
                .where('x.rating_type', '=', type)
                .where('x.superseded_at', 'is', null),
            ),
          ),
        ),
      ),
    )
    .orderBy('l.created_at')
    .orderBy('l.id')
    .execute();
  return rows.map((row) => row.id);
}
