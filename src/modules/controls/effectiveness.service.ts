import { sql } from 'kysely';
import { assignedScope, requireAssigned, requireMember, seesLegalEntity } from '../../platform/auth/policies.js';
import type { Caller } from '../../platform/auth/principal.js';
import type { Executor } from '../../platform/db/schema.js';
import { AppError, forbidden } from '../../platform/http/errors.js';
import { findBusinessUnit, findLegalEntity } from '../legal-entities/legal-entities.repository.js';
import {
  countByEffectiveness,
  countByTodAndToe,
  type CountScope,
  type EffectivenessCounts,
} from './effectiveness.repository.js';
import { shapeHeatMap, type HeatMap } from './heat-map.js';

const invalidReference = (field: string, why: string) => new AppError('INVALID_REFERENCE', `${field} ${why}`, { field });

export interface ScopeQuery {
  legal_entity_id?: string | undefined;
  business_unit_id?: string | undefined;
  archived?: boolean | undefined;
}

/**
 * Effectiveness summary and heat map (4.3, D7.1), each one aggregate query in the database. Every member
 * role reads them (D5). Without filters they cover the whole library; a legal entity or business unit
 * narrows them to the sub-controls linked to BRAs there.
 */
export function createEffectivenessService({ db }: { db: Executor }) {
  /**
   * The scope of a query, checked in order: an id that is not of this enterprise, or a unit of another
   * entity → 400 INVALID_REFERENCE (D2.2); an entity or unit not assigned to an assessor or reviewer → 403
   * (D7.1, D10.1).
   * Within an entity, an assessor or reviewer assigned to some of its units counts the BRAs of those units.
   */
  async function scopeOf(caller: Caller & { enterpriseId: string }, query: ScopeQuery): Promise<CountScope> {
    const enterpriseId = caller.enterpriseId;
    const includeArchived = query.archived === true;
    let legalEntityId = query.legal_entity_id;
    const businessUnitId = query.business_unit_id;
    if (legalEntityId === undefined && businessUnitId === undefined) return { bras: sql`true`, includeArchived };
    if (legalEntityId !== undefined && (await findLegalEntity(db, enterpriseId, legalEntityId)) === undefined) {
      throw invalidReference('legal_entity_id', 'does not refer to a legal entity of your enterprise');
    }
    if (businessUnitId !== undefined) {
      const unit = await findBusinessUnit(db, enterpriseId, businessUnitId);
      if (unit === undefined) throw invalidReference('business_unit_id', 'does not refer to a business unit of your enterprise');
      if (legalEntityId !== undefined && unit.legal_entity_id !== legalEntityId) {
        throw invalidReference('business_unit_id', 'does not belong to legal_entity_id');
      }
      legalEntityId = unit.legal_entity_id;
      requireAssigned(caller, legalEntityId, businessUnitId);
    } else if (!seesLegalEntity(caller, legalEntityId!)) {
      throw forbidden('You are not assigned to this legal entity');
    }
    return {
      legalEntityId,
      businessUnitId,
      bras: assignedScope(caller, 'b.legal_entity_id', 'b.business_unit_id'),
      includeArchived,
    };
  }

  return {
    async summary(caller: Caller, query: ScopeQuery): Promise<EffectivenessCounts> {
      requireMember(caller);
      return countByEffectiveness(db, caller.enterpriseId, await scopeOf(caller, query));
    },

    async heatMap(caller: Caller, query: ScopeQuery): Promise<HeatMap> {
      requireMember(caller);
      return shapeHeatMap(await countByTodAndToe(db, caller.enterpriseId, await scopeOf(caller, query)));
    },
  };
}

export type EffectivenessService = ReturnType<typeof createEffectivenessService>;
