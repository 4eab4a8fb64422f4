import type { Generated } from 'kysely';
import type { CreatedAt, UpdatedAt } from './enterprises.js';

/** Identities, whoever creates them; written only through platform/auth/users.repository.ts. */
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

/** The embedded provider's ES256 signing keys: one signs, retired ones verify until verify_until. */
export interface AuthSigningKeysTable {
  kid: string;
  private_jwk: unknown | null;
  public_jwk: unknown;
  source: string;
  created_at: CreatedAt;
  retired_at: Date | null;
  verify_until: Date | null;
}

/** Invitation and recovery links: only the hash of the last minted token is kept. */
export interface AuthOneTimeTokensTable {
  id: Generated<string>;
  user_id: string;
  kind: 'invite' | 'recovery';
  token_hash: string | null;
  enterprise_id: string | null;
  invited_by: string | null;
  redirect_to: string | null;
  created_at: CreatedAt;
  expires_at: Date;
  used_at: Date | null;
  revoked_at: Date | null;
}

/**
 * Where each account recently signed in from: a keyed hash of the address and user agent (never the values),
 * at most ten per user; written only by platform/auth/provider/sign-in-origins.repository.ts.
 */
export interface AuthSignInOriginsTable {
  user_id: string;
  origin_hash: string;
  last_seen_at: Date;
}

export interface AuthTables {
  auth_one_time_tokens: AuthOneTimeTokensTable;
  users: UsersTable;
  auth_signing_keys: AuthSigningKeysTable;
  auth_sessions: AuthSessionsTable;
  auth_refresh_tokens: AuthRefreshTokensTable;
  auth_sign_in_origins: AuthSignInOriginsTable;
  platform_secrets: PlatformSecretsTable;
}
