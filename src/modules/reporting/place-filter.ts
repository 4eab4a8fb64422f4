import type { Caller } from '../../platform/auth/principal.js';
import type { Executor } from '../../platform/db/schema.js';
import { invalidReference, referencedRecord } from '../../platform/errors/app-error.js';
import { findBusinessUnit, findLegalEntity } from '../legal-entities/legal-entities.repository.js';
import { requireBusinessUnitFilter, requireLegalEntityFilter } from './reporting.policy.js';

export interface PlaceFilter {
  legal_entity_id?: string | undefined;
  business_unit_id?: string | undefined;
}

/**
 * The legal entity and business unit filters of the register and the dashboard, as the BRA list reads
 * them (D10.1): unknown in the enterprise → 400 INVALID_REFERENCE, a unit of another entity → 400,
 * not assigned to the caller → 403.
 */
export async function checkPlaceFilter(db: Executor, caller: Caller & { enterpriseId: string }, filter: PlaceFilter): Promise<void> {
  if (filter.legal_entity_id !== undefined) {
    await referencedRecord('legal_entity_id', 'a legal entity', findLegalEntity(db, caller.enterpriseId, filter.legal_entity_id));
    requireLegalEntityFilter(caller, filter.legal_entity_id);
  }
  if (filter.business_unit_id !== undefined) {
    const unit = await referencedRecord('business_unit_id', 'a business unit', findBusinessUnit(db, caller.enterpriseId, filter.business_unit_id));
    if (filter.legal_entity_id !== undefined && unit.legal_entity_id !== filter.legal_entity_id) {
      throw invalidReference('business_unit_id', 'a business unit of that legal entity');
    }
    requireBusinessUnitFilter(caller, unit);
  }
}
