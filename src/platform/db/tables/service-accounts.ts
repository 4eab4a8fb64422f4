import type { Generated } from 'kysely';
import type { CreatedAt, UpdatedAt } from './enterprises.js';
import type { MemberRole } from './users.js';

/** An integration's identity in an enterprise: its id is the id of its `users` row (the identity module's). */
export interface ServiceAccountsTable {
  id: string;
  enterprise_id: string;
  name: string;
  description: string | null;
  role: MemberRole;
  active: Generated<boolean>;
  deactivated_at: Date | null;
  created_by: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  /** One more at every change a client sees (its ETag; If-Match). */
  row_version: Generated<number>;
}

export interface ServiceAccountEntitiesTable {
  id: Generated<string>;
  enterprise_id: string;
  service_account_id: string;
  legal_entity_id: string;
  business_unit_id: string | null;
}

export interface ServiceAccountTokensTable {
  id: Generated<string>;
  enterprise_id: string;
  service_account_id: string;
  name: string;
  /** SHA-256 (hex) of the token's secret part; the token itself is never stored. */
  secret_hash: string;
  hint: string;
  expires_at: Date;
  allowed_ips: string[] | null;
  last_used_at: Date | null;
  last_used_ip: string | null;
  revoked_at: Date | null;
  revoked_by: string | null;
  rotated_from: string | null;
  created_by: string | null;
  created_at: CreatedAt;
}

/** Owned by the identity module's service accounts (src/modules/identity/service-accounts). */
export interface ServiceAccountsTables {
  service_accounts: ServiceAccountsTable;
  service_account_entities: ServiceAccountEntitiesTable;
  service_account_tokens: ServiceAccountTokensTable;
}
