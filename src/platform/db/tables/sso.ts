import type { Generated } from 'kysely';
import type { CreatedAt, UpdatedAt } from './enterprises.js';

export type SsoConnectionType = 'oidc';
export type SsoJitRole = 'assessor' | 'reviewer';

/** An enterprise's connection to its identity provider (OIDC today; SAML adds its type and columns). */
export interface SsoConnectionsTable {
  id: Generated<string>;
  enterprise_id: string;
  type: SsoConnectionType;
  name: string;
  issuer: string | null;
  client_id: string | null;
  /** Kept to authenticate the token request; never answered back. */
  client_secret: string | null;
  scopes: Generated<string[]>;
  enforce_sso: Generated<boolean>;
  jit_role: SsoJitRole | null;
  created_by: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  row_version: Generated<number>;
}

/** An e-mail domain an enterprise claims; verified_at set once proven (DNS TXT) or attested by a super admin. */
export interface SsoDomainsTable {
  id: Generated<string>;
  enterprise_id: string;
  domain: string;
  verification_token: string;
  verified_at: Date | null;
  verified_by: string | null;
  created_by: string | null;
  created_at: CreatedAt;
}

/** A sign-in under way between the redirect to the provider and its callback. */
export interface SsoFlowsTable {
  state_hash: string;
  enterprise_id: string;
  connection_id: string;
  browser_hash: string;
  nonce: string;
  code_verifier: string;
  redirect_to: string;
  expires_at: Date;
  created_at: CreatedAt;
}

/** Owned by the identity module's single sign-on (src/modules/identity/sso). */
export interface SsoTables {
  sso_connections: SsoConnectionsTable;
  sso_domains: SsoDomainsTable;
  sso_flows: SsoFlowsTable;
}
