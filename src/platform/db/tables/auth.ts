import type { Generated } from 'kysely';
import type { CreatedAt } from './enterprises.js';

export interface AuthSessionsTable {
  id: Generated<string>;
  user_id: string;
  created_at: CreatedAt;
  refreshed_at: Date | null;
  revoked_at: Date | null;
  revoked_reason: string | null;
}

export interface AuthRefreshTokensTable {
  id: Generated<number>;
  session_id: string;
  token_hash: string;
  created_at: CreatedAt;
  expires_at: Date;
  replaced_at: Date | null;
}

export interface PlatformSecretsTable {
  name: string;
  value: unknown;
  created_at: CreatedAt;
}

export interface AuthTables {
  auth_sessions: AuthSessionsTable;
  auth_refresh_tokens: AuthRefreshTokensTable;
  platform_secrets: PlatformSecretsTable;
}
