import { sql, type Transaction } from 'kysely';
import type { DB } from '../../platform/db/schema.js';
import { liveBraSql } from '../bras/bras.lifecycle.js';
import { aboveAppetiteSql, applicableAppetite, braPlace } from './appetite-rules.js';
import type { AppetiteScope } from './risk-appetite.repository.js';

export interface ScenarioAboveAppetite {
  bra_risk_scenario_id: string;
  risk_scenario_id: string;
  risk_scenario_name: string;
  bra_id: string;
  bra_name: string;
  risk_score: number;
  risk_level: string;
  risk_appetite_id: string;
  threshold_value: number;
}

/**
 * The included scenarios of live BRAs (bras.lifecycle.ts) under an appetite scope whose current residual
 * score is above the BRA's applicable appetite (D6.9, appetite-rules.ts), in one statement. Read of the BRAs'
 * tables in a query of our own (they are the bras module's); run before and after an appetite change, the
 * difference is what the change pushed above.
 */
export async function scenariosAboveAppetite(trx: Transaction<DB>, enterpriseId: string, scope: AppetiteScope): Promise<ScenarioAboveAppetite[]> {
  const { rows } = await sql<ScenarioAboveAppetite>`
    select l.id as bra_risk_scenario_id, l.risk_scenario_id, rs.name as risk_scenario_name, b.id as bra_id, b.name as bra_name,
           r.risk_score, r.risk_level, a.id as risk_appetite_id, a.threshold_value
    from bras b
    join bra_risk_scenarios l on l.enterprise_id = b.enterprise_id and l.bra_id = b.id and l.included
    join risk_scenarios rs on rs.enterprise_id = l.enterprise_id and rs.id = l.risk_scenario_id
    join bra_ratings r on r.enterprise_id = l.enterprise_id and r.bra_risk_scenario_id = l.id
      and r.rating_type = 'residual' and r.superseded_at is null
    cross join lateral ${applicableAppetite(braPlace('b'), sql`ra.id, ra.threshold_value`)} a
    where b.enterprise_id = ${enterpriseId}
      and ${liveBraSql('b')}
      and (${scope.legalEntityId}::uuid is null or b.legal_entity_id = ${scope.legalEntityId})
      and (${scope.businessUnitId}::uuid is null or b.business_unit_id = ${scope.businessUnitId})
      and ${aboveAppetiteSql('r.risk_score', 'a.threshold_value')}`.execute(trx);
  return rows;
}
