import { sql } from 'kysely';
import type { Caller } from '../../../platform/auth/principal.js';
import type { Executor } from '../../../platform/db/schema.js';
import { AppError, referencedRecord } from '../../../platform/errors/app-error.js';
import { findBra } from '../../bras/bras.repository.js';
import { findBusinessUnit, findLegalEntity } from '../../legal-entities/legal-entities.repository.js';
import { controlBraScope, requireControlScopeReader } from '../controls.policy.js';
import type { CountScope } from './effectiveness.repository.js';

const invalidReference = (field: string, why: string) => new AppError('INVALID_REFERENCE', `${field} ${why}`, { field });

/** The filters that narrow the library to the sub-controls linked to some BRAs (D7.1, and bra_id). */
export interface ScopeQuery {
  legal_entity_id?: string | undefined;
  business_unit_id?: string | undefined;
  bra_id?: string | undefined;
  archived?: boolean | undefined;
}

/**
 * The scope of an effectiveness count, a heat map or a sub-control list, checked in order: an id that is
 * not of this enterprise, or a unit (or BRA) of another entity or unit than the one named → 400
 * INVALID_REFERENCE (D2.2); an entity, unit or BRA not assigned to an assessor or reviewer → 403 (D7.1,
 * D10.1). Within an entity, an assessor or reviewer assigned to some of its units counts the BRAs of those
 * units.
 */
export async function resolveControlScope(db: Executor, caller: Caller & { enterpriseId: string }, query: ScopeQuery): Promise<CountScope> {
  const enterpriseId = caller.enterpriseId;
  const includeArchived = query.archived === true;
  let legalEntityId = query.legal_entity_id;
  let businessUnitId = query.business_unit_id;
  const braId = query.bra_id;
  if (legalEntityId === undefined && businessUnitId === undefined && braId === undefined) return { bras: sql`true`, includeArchived };
  if (legalEntityId !== undefined) await referencedRecord('legal_entity_id', 'a legal entity', findLegalEntity(db, enterpriseId, legalEntityId));
  if (businessUnitId !== undefined) {
    const unit = await referencedRecord('business_unit_id', 'a business unit', findBusinessUnit(db, enterpriseId, businessUnitId));
    if (legalEntityId !== undefined && unit.legal_entity_id !== legalEntityId) {
      throw invalidReference('business_unit_id', 'does not belong to legal_entity_id');
    }
    legalEntityId = unit.legal_entity_id;
  }
  let bra: { legal_entity_id: string; business_unit_id: string | null } | undefined;
  if (braId !== undefined) {
    bra = await referencedRecord('bra_id', 'a BRA', findBra(db, enterpriseId, braId));
    if (legalEntityId !== undefined && bra.legal_entity_id !== legalEntityId) throw invalidReference('bra_id', 'does not belong to legal_entity_id');
    if (businessUnitId !== undefined && bra.business_unit_id !== businessUnitId) throw invalidReference('bra_id', 'does not belong to business_unit_id');
  }
  requireControlScopeReader(caller, { legalEntityId: bra?.legal_entity_id ?? legalEntityId!, businessUnitId, bra });
  return {
    legalEntityId,
    businessUnitId,
    braId,
    bras: controlBraScope(caller),
    includeArchived,
  };
}
