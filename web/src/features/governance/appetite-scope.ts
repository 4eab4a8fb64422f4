import type { LegalEntity } from '../legal-entities/api';

/**
 * An appetite's scope named without ambiguity (D6.9's three levels): the enterprise default, a legal entity,
 * or a business unit within its entity ("Entity › Unit": two entities may have units of the same name).
 */
export function scopeName(entities: LegalEntity[] | undefined, scope: { legal_entity_id: string | null; business_unit_id: string | null }): string {
  if (scope.legal_entity_id === null) return 'Enterprise default';
  const entity = entities?.find((candidate) => candidate.id === scope.legal_entity_id);
  const entityName = entity?.name ?? 'A legal entity you are not assigned to';
  if (scope.business_unit_id === null) return `${entityName} (whole entity)`;
  const unit = entity?.business_units.find((candidate) => candidate.id === scope.business_unit_id);
  return `${entityName} › ${unit?.name ?? 'a business unit'}`;
}
