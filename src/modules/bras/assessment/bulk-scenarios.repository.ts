import type { Executor } from '../../../platform/db/schema.js';
import { scenarioLinksOf } from './content.repository.js';

/** Many scenario links of a BRA at once (SQL only): one statement to check the ids, one to insert them. */

/** The catalogue scenarios of the enterprise among these ids (a read of the catalogue's table), with their archive date. */
export async function findCatalogueScenarios(db: Executor, enterpriseId: string, ids: readonly string[]) {
  return db
    .selectFrom('risk_scenarios')
    .select(['id', 'archived_at'])
    .where('enterprise_id', '=', enterpriseId)
    .where('id', 'in', ids)
    .execute();
}

/** Which of these catalogue scenarios the BRA already has. */
export async function linkedScenarioIds(db: Executor, enterpriseId: string, braId: string, ids: readonly string[]): Promise<string[]> {
  const rows = await scenarioLinksOf(db, enterpriseId, braId).select('l.risk_scenario_id').where('l.risk_scenario_id', 'in', ids).execute();
  return rows.map((row) => row.risk_scenario_id);
}

export async function insertScenarioLinks(
  db: Executor,
  enterpriseId: string,
  values: { bra_id: string; risk_scenario_ids: readonly string[]; included: boolean; created_by: string },
) {
  return db
    .insertInto('bra_risk_scenarios')
    .values(
      values.risk_scenario_ids.map((riskScenarioId) => ({
        enterprise_id: enterpriseId,
        bra_id: values.bra_id,
        risk_scenario_id: riskScenarioId,
        included: values.included,
        created_by: values.created_by,
      })),
    )
    .returning(['id', 'risk_scenario_id', 'included'])
    .execute();
}
