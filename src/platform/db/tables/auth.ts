import type { CreatedAt } from './enterprises.js';

/**
 * Token verification's own tables (src/platform/auth): the keys the embedded provider signs with and the
 * verifier checks against, and the generated API keys and the recorded token issuer.
 */

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

export interface AuthTables {
  auth_signing_keys: AuthSigningKeysTable;
  platform_secrets: PlatformSecretsTable;
}
