import type { Generated } from 'kysely';
import type { CreatedAt, UpdatedAt } from './enterprises.js';

/**
 * The identity module's tables (src/modules/identity): identities, their sign-in sessions and refresh
 * tokens, their invitation and recovery links, and where they recently signed in from. Other modules read them in their own statements (the
 * principal resolver, the member lists) and change them through the identity service.
 */

/** Identities, whoever creates them (an administrator, the start-up bootstrap, an external provider's first sign-in). */
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
 * at most ten per user; written only by modules/identity/provider/sign-in-origins.repository.ts.
 */
export interface AuthSignInOriginsTable {
  user_id: string;
  origin_hash: string;
  last_seen_at: Date;
}

export interface IdentityTables {
  users: UsersTable;
  auth_sessions: AuthSessionsTable;
  auth_refresh_tokens: AuthRefreshTokensTable;
  auth_one_time_tokens: AuthOneTimeTokensTable;
  auth_sign_in_origins: AuthSignInOriginsTable;
}
