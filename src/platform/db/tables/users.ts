import type { Generated } from 'kysely';
import type { CreatedAt, UpdatedAt } from './enterprises.js';

export type MemberRole = 'admin' | 'assessor' | 'reviewer';

export interface UsersTable {
  id: Generated<string>;
  email: string;
  full_name: string;
  password_hash: string | null;
  is_super_admin: Generated<boolean>;
  active: Generated<boolean>;
  external_subject: string | null;
  last_sign_in_at: Date | null;
  deactivated_at: Date | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface EnterpriseMembersTable {
  id: Generated<string>;
  enterprise_id: string;
  user_id: string;
  role: MemberRole;
  active: Generated<boolean>;
  created_at: CreatedAt;
  deactivated_at: Date | null;
}

export interface EntityRolesTable {
  id: Generated<string>;
  enterprise_id: string;
  user_id: string;
  legal_entity_id: string;
  business_unit_id: string | null;
  created_at: CreatedAt;
}

export interface UsersTables {
  users: UsersTable;
  enterprise_members: EnterpriseMembersTable;
  entity_roles: EntityRolesTable;
}
