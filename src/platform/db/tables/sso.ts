import type { Generated } from 'kysely';
import type { CreatedAt, UpdatedAt } from './enterprises.js';

export type SsoConnectionType = 'oidc' | 'saml';
export type SsoJitRole = 'assessor' | 'reviewer';

/** An enterprise's connection to its identity provider: OIDC (issuer, client) or SAML 2.0 (the IdP's imported metadata). */
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
  /** SAML: the IdP's entity id, its HTTP-Redirect SingleSignOnService, its signing certificates (PEM), its metadata. */
  idp_entity_id: string | null;
  idp_sso_url: string | null;
  idp_certificates: string[] | null;
  idp_metadata_xml: string | null;
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
  /** OIDC: the id_token's nonce; SAML: the AuthnRequest's ID. */
  nonce: string;
  /** OIDC only (PKCE). */
  code_verifier: string | null;
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
