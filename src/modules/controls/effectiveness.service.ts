import { requireMember } from '../../platform/auth/policies.js';
import type { Caller } from '../../platform/auth/principal.js';
import type { Executor } from '../../platform/db/schema.js';
import { resolveControlScope, type ScopeQuery } from './control-scope.js';
import { countByEffectiveness, countByTodAndToe, type EffectivenessCounts } from './effectiveness.repository.js';
import { shapeHeatMap, type HeatMap } from './heat-map.js';

/**
 * Effectiveness summary and heat map (4.3, D7.1), each one aggregate query in the database. Every member
 * role reads them (D5). Without filters they cover the whole library; a legal entity, business unit or BRA
 * narrows them to the sub-controls linked to BRAs there (control-scope.ts). Each heat-map cell carries the
 * sub-control list filter that lists exactly the sub-controls it counts.
 */
export function createEffectivenessService({ db }: { db: Executor }) {
  return {
    async summary(caller: Caller, query: ScopeQuery): Promise<EffectivenessCounts> {
      requireMember(caller);
      return countByEffectiveness(db, caller.enterpriseId, await resolveControlScope(db, caller, query));
    },

    async heatMap(caller: Caller, query: ScopeQuery): Promise<HeatMap> {
      requireMember(caller);
      return shapeHeatMap(await countByTodAndToe(db, caller.enterpriseId, await resolveControlScope(db, caller, query)), query);
    },
  };
}

export type EffectivenessService = ReturnType<typeof createEffectivenessService>;
