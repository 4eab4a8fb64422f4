import type { Caller } from '../../platform/auth/principal.js';
import type { Executor } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors/app-error.js';
import { findBusinessUnit, findLegalEntity } from '../legal-entities/legal-entities.repository.js';
import { requireBusinessUnitFilter, requireLegalEntityFilter } from './reporting.policy.js';

export interface PlaceFilter {
  legal_entity_id?: string | undefined;
  business_unit_id?: string | undefined;
}

const invalidReference = (field: string, what: string) =>
  new AppError('INVALID_REFERENCE', `${field} does not refer to ${what} of your enterprise`, { field });

/**
 * The legal entity and business unit filters of the register and the dashboard, as the BRA list reads
 * them (D10.1): unknown in the enterprise → 400 INVALID_REFERENCE, a unit of another entity → 400,
 * not assigned to the caller → 403.
 */
export async function checkPlaceFilter(db: Executor, caller: Caller & { enterpriseId: string }, filter: PlaceFilter): Promise<void> {
  if (filter.legal_entity_id !== undefined) {
    if ((await findLegalEntity(db, caller.enterpriseId, filter.legal_entity_id)) === undefined) {
      throw invalidReference('legal_entity_id', 'a legal entity');
    }
    requireLegalEntityFilter(caller, filter.legal_entity_id);
  }
  if (filter.business_unit_id !== undefined) {
    const unit = await findBusinessUnit(db, caller.enterpriseId, filter.business_unit_id);
    if (unit === undefined) throw invalidReference('business_unit_id', 'a business unit');
    if (filter.legal_entity_id !== undefined && unit.legal_entity_id !== filter.legal_entity_id) {
      throw invalidReference('business_unit_id', 'a business unit of that legal entity');
    }
    requireBusinessUnitFilter(caller, unit);
  }
}
