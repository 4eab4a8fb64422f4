import type { Generated } from 'kysely';
import type { CreatedAt } from './enterprises.js';

export interface EntityRolesTable {
  id: Generated<string>;
  enterprise_id: string;
  user_id: string;
  legal_entity_id: string;
  business_unit_id: string | null;
  created_at: CreatedAt;
}

export interface EntityRolesTables {
  entity_roles: EntityRolesTable;
}
