import type { Principal } from '../../platform/auth/principal.js';
import type { Executor } from '../../platform/db/schema.js';
import type { BraStatus } from '../../platform/db/tables/bras.js';
import type { EvidenceRecordType } from '../../platform/db/tables/evidence.js';
import { actionScope } from '../actions/actions.policy.js';

/**
 * The record a file is attached to, as the evidence rules need it: read, in one statement each, from the
 * tables of the modules that own the records (BRAs and their scenario links, mitigation actions, sub-control
 * tests). Another enterprise's record and an unknown id are both simply not found.
 */

export type RecordPlace =
  | { type: 'bra' | 'bra_scenario'; bra: { id: string; legal_entity_id: string; business_unit_id: string | null; created_by: string | null; status: BraStatus } }
  | { type: 'mitigation_action'; action: { in_scope: boolean; archived: boolean } }
  | { type: 'sub_control_test'; subControl: { id: string; archived: boolean } };

const BRA_PLACE = ['b.id', 'b.legal_entity_id', 'b.business_unit_id', 'b.created_by', 'b.status'] as const;

export async function findRecordPlace(
  db: Executor,
  caller: Principal & { enterpriseId: string },
  type: EvidenceRecordType,
  recordId: string,
): Promise<RecordPlace | undefined> {
  const enterpriseId = caller.enterpriseId;
  switch (type) {
    case 'bra': {
      const bra = await db.selectFrom('bras as b').select(BRA_PLACE).where('b.enterprise_id', '=', enterpriseId).where('b.id', '=', recordId).executeTakeFirst();
      return bra && { type, bra };
    }
    case 'bra_scenario': {
      const bra = await db
        .selectFrom('bra_risk_scenarios as l')
        .innerJoin('bras as b', (join) => join.onRef('b.enterprise_id', '=', 'l.enterprise_id').onRef('b.id', '=', 'l.bra_id'))
        .select(BRA_PLACE)
        .where('l.enterprise_id', '=', enterpriseId)
        .where('l.id', '=', recordId)
        .executeTakeFirst();
      return bra && { type, bra };
    }
    case 'mitigation_action': {
      const action = await db
        .selectFrom('mitigation_actions as a')
        .leftJoin('bras as b', (join) => join.onRef('b.enterprise_id', '=', 'a.enterprise_id').onRef('b.id', '=', 'a.bra_id'))
        .select(['a.archived', actionScope(caller).as('in_scope')])
        .where('a.enterprise_id', '=', enterpriseId)
        .where('a.id', '=', recordId)
        .executeTakeFirst();
      return action && { type, action: { archived: action.archived, in_scope: action.in_scope === true } };
    }
    case 'sub_control_test': {
      const subControl = await db
        .selectFrom('sub_control_tests as t')
        .innerJoin('sub_controls as s', (join) => join.onRef('s.enterprise_id', '=', 't.enterprise_id').onRef('s.id', '=', 't.sub_control_id'))
        .select(['s.id', 's.archived'])
        .where('t.enterprise_id', '=', enterpriseId)
        .where('t.id', '=', recordId)
        .executeTakeFirst();
      return subControl && { type, subControl };
    }
  }
}
