import { requireControlsReader } from '../controls.policy.js';
import type { Caller } from '../../../platform/auth/principal.js';
import { PRIMARY_READS, type RoutedReads } from '../../../platform/db/read-routing.js';
import type { Executor } from '../../../platform/db/schema.js';
import { resolveControlScope, type ScopeQuery } from './control-scope.js';
import { countByEffectiveness, countByTodAndToe, type EffectivenessCounts } from './effectiveness.repository.js';
import { shapeHeatMap, type HeatMap } from './heat-map.js';

/**
 * Effectiveness summary and heat map (4.3, D7.1), each one aggregate query in the database. Every member
 * role reads them (D5). Without filters they cover the whole library; a legal entity, business unit or BRA
 * narrows them to the sub-controls linked to BRAs there (control-scope.ts). Each heat-map cell carries the
 * sub-control list filter that lists exactly the sub-controls it counts. Both may be read from the replica
 * (db/read-routing.ts): the caller's own last change is there, or they are read on the primary.
 */
export function createEffectivenessService({ db: primary, reads = PRIMARY_READS }: { db: Executor; reads?: RoutedReads }) {
  return {
    async summary(caller: Caller, query: ScopeQuery): Promise<EffectivenessCounts> {
      requireControlsReader(caller);
      const db = await reads.executorFor(primary, caller.userId);
      return countByEffectiveness(db, caller.enterpriseId, await resolveControlScope(db, caller, query));
    },

    async heatMap(caller: Caller, query: ScopeQuery): Promise<HeatMap> {
      requireControlsReader(caller);
      const db = await reads.executorFor(primary, caller.userId);
      return shapeHeatMap(await countByTodAndToe(db, caller.enterpriseId, await resolveControlScope(db, caller, query)), query);
    },
  };
}

export type EffectivenessService = ReturnType<typeof createEffectivenessService>;
