import type { Generated } from 'kysely';
import type { CreatedAt } from './enterprises.js';

export type MemberRole = 'admin' | 'assessor' | 'reviewer';

export interface EnterpriseMembersTable {
  id: Generated<string>;
  enterprise_id: string;
  user_id: string;
  role: MemberRole;
  active: Generated<boolean>;
  created_at: CreatedAt;
  deactivated_at: Date | null;
  row_version: Generated<number>;
}

/** Memberships: the admin module's users (identities themselves, `users`, are the identity module's: tables/identity.ts). */
export interface UsersTables {
  enterprise_members: EnterpriseMembersTable;
}
