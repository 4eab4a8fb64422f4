import type { Generated } from 'kysely';
import type { ArchivedByColumns } from './enterprises.js';

export interface LegalEntitiesTable extends ArchivedByColumns {
  id: Generated<string>;
  enterprise_id: string;
  name: string;
  description: string | null;
}

export interface BusinessUnitsTable extends ArchivedByColumns {
  id: Generated<string>;
  enterprise_id: string;
  legal_entity_id: string;
  name: string;
  description: string | null;
}

export interface LegalEntitiesTables {
  legal_entities: LegalEntitiesTable;
  business_units: BusinessUnitsTable;
}
