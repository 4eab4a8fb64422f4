import type { Generated } from 'kysely';
import type { CreatedAt, UpdatedAt } from './enterprises.js';

export type ScimGroupRole = 'assessor' | 'reviewer';

export interface ScimTokensTable {
  id: Generated<string>;
  enterprise_id: string;
  name: string;
  /** SHA-256 (hex) of the token's secret part; the token itself is never stored. */
  secret_hash: string;
  hint: string;
  expires_at: Date | null;
  last_used_at: Date | null;
  last_used_ip: string | null;
  revoked_at: Date | null;
  revoked_by: string | null;
  created_by: string | null;
  created_at: CreatedAt;
}

/** A member the enterprise's directory manages, with the directory's own id for them. */
export interface ScimUsersTable {
  user_id: string;
  enterprise_id: string;
  external_id: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface ScimGroupsTable {
  id: Generated<string>;
  enterprise_id: string;
  display_name: string;
  external_id: string | null;
  /** The role its members get; null: not mapped. */
  role: ScimGroupRole | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  row_version: Generated<number>;
}

export interface ScimGroupEntitiesTable {
  id: Generated<string>;
  enterprise_id: string;
  group_id: string;
  legal_entity_id: string;
  business_unit_id: string | null;
}

export interface ScimGroupMembersTable {
  enterprise_id: string;
  group_id: string;
  user_id: string;
}

/** Owned by the identity module's SCIM provisioning (src/modules/identity/scim). */
export interface ScimTables {
  scim_tokens: ScimTokensTable;
  scim_users: ScimUsersTable;
  scim_groups: ScimGroupsTable;
  scim_group_entities: ScimGroupEntitiesTable;
  scim_group_members: ScimGroupMembersTable;
}
