import type { Generated } from 'kysely';
import type { CreatedAt, UpdatedAt } from './enterprises.js';

export interface LegalEntitiesTable {
  id: Generated<string>;
  enterprise_id: string;
  name: string;
  description: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  archived_at: Date | null;
  archived_by: string | null;
  /** One more at every change of the row (a trigger): the ETag's version. */
  row_version: Generated<number>;
}

export interface BusinessUnitsTable {
  id: Generated<string>;
  enterprise_id: string;
  legal_entity_id: string;
  name: string;
  description: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  archived_at: Date | null;
  archived_by: string | null;
  /** One more at every change of the row (a trigger): the ETag's version. */
  row_version: Generated<number>;
}

export interface LegalEntitiesTables {
  legal_entities: LegalEntitiesTable;
  business_units: BusinessUnitsTable;
}
