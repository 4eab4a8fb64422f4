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
}

export interface LegalEntitiesTables {
  legal_entities: LegalEntitiesTable;
  business_units: BusinessUnitsTable;
}
