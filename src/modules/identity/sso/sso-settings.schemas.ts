import { Type, type Static, type TSchema } from 'typebox';
import { Message, MessageOnly, Name, Nullable, Pagination, PaginationQuery, Timestamp, Uuid, errorResponses } from '../../../platform/http/schemas.js';
import { SSO_JIT_ROLES } from '../integrations.policy.js';

const Scope = Type.String({ pattern: '^[\\x21\\x23-\\x5B\\x5D-\\x7E]{1,100}$', description: 'An OAuth scope (RFC 6749 3.3)' });
const Scopes = Type.Array(Scope, { minItems: 1, maxItems: 20, uniqueItems: true, description: 'The scopes asked of the provider; `openid` and `email` are always asked' });
const JitRole = Nullable(Type.Enum([...SSO_JIT_ROLES], { description: 'Just-in-time membership: the role given to a person of a verified domain signing in for the first time (assessor or reviewer); null: off, only existing members sign in' }));

const SamlView = Type.Object(
  {
    idp_entity_id: Type.String({ description: "The IdP's entity id (its assertions' Issuer), from its metadata" }),
    idp_sso_url: Type.String({ description: "The IdP's SingleSignOnService (HTTP-Redirect binding), where sign-ins are sent" }),
    idp_certificates: Type.Array(
      Type.Object({
        subject: Type.String(),
        not_after: Timestamp('When the certificate expires: import the new metadata before'),
        fingerprint_sha256: Type.String({ description: 'SHA-256 fingerprint, colon-separated hex' }),
      }),
      { description: "The certificates the IdP's assertions must be signed with (a rotation publishes two)" },
    ),
    sp_entity_id: Type.String({ description: "This service's SP entity id (Entra ID: Identifier; Okta: Audience URI)" }),
    acs_url: Type.String({ description: "This service's Assertion Consumer Service, HTTP-POST (Entra ID: Reply URL; Okta: Single sign-on URL)" }),
    metadata_url: Type.String({ description: "This service's SP metadata, to import at the IdP where it can" }),
  },
  { description: 'SAML: what the imported IdP metadata states, and the values to enter at the IdP' },
);

export const SsoConnectionView = Type.Object({
  id: Uuid('The connection (Supabase auth-js: its providerId)'),
  type: Type.Enum(['oidc', 'saml'], { description: 'The protocol: oidc or saml' }),
  name: Type.String(),
  issuer: Nullable(Type.String({ description: "OIDC: the provider's issuer URL (discovered at {issuer}/.well-known/openid-configuration); null for SAML" })),
  client_id: Nullable(Type.String({ description: 'OIDC: the client id; null for SAML' })),
  client_secret_set: Type.Boolean({ description: 'OIDC: the client secret is kept (never answered back); false for SAML' }),
  scopes: Type.Array(Type.String()),
  enforce_sso: Type.Boolean({ description: "Password sign-in refused for members whose e-mail is in a verified domain (super admins excepted)" }),
  jit_role: Nullable(Type.String({ description: 'The role of just-in-time membership; null: off' })),
  redirect_uri: Type.String({ description: 'OIDC: the redirect URI to register at the provider' }),
  saml: Nullable(SamlView),
  created_at: Timestamp(),
  updated_at: Timestamp(),
});
export type SsoConnectionView = Static<typeof SsoConnectionView>;

const Issuer = Type.String({ format: 'uri', maxLength: 500, description: "The provider's issuer URL (https)" });
const ClientId = Type.String({ minLength: 1, maxLength: 500, description: 'The client (application) id registered at the provider' });
const ClientSecret = Type.String({ minLength: 1, maxLength: 2000, description: 'The client secret; kept, never answered back' });
const ConnectionType = Type.Enum(['oidc', 'saml'], { description: 'The protocol (default oidc); it cannot change once the connection is kept' });
const IdpMetadataXml = Type.String({ minLength: 1, maxLength: 500_000, description: "SAML: the IdP's metadata XML (Entra ID: Federation Metadata XML; Okta: the app's IdP metadata)" });

export const CreateSsoConnectionBody = Type.Object(
  {
    name: Name('What the admins call it, e.g. "Entra ID"'),
    type: Type.Optional(ConnectionType),
    issuer: Type.Optional({ ...Issuer, description: "OIDC (required): the provider's issuer URL (https)" }),
    client_id: Type.Optional({ ...ClientId, description: 'OIDC (required): the client (application) id registered at the provider' }),
    client_secret: Type.Optional({ ...ClientSecret, description: 'OIDC (required): the client secret; kept, never answered back' }),
    idp_metadata_xml: Type.Optional({ ...IdpMetadataXml, description: "SAML (required): the IdP's metadata XML, imported" }),
    scopes: Type.Optional(Scopes),
    enforce_sso: Type.Optional(Type.Boolean({ description: 'Default false' })),
    jit_role: Type.Optional(JitRole),
  },
  {
    additionalProperties: false,
    examples: [{ name: 'Entra ID', issuer: 'https://login.microsoftonline.com/8c3b1c42-0b7e-4b8e-9a1f-3d2e1f0a9b7c/v2.0', client_id: '1f2e3d4c-5b6a-4978-8a9b-0c1d2e3f4a5b', client_secret: 'the secret', scopes: ['openid', 'email', 'profile'], enforce_sso: false, jit_role: null }, { name: 'Okta (SAML)', type: 'saml', idp_metadata_xml: '<md:EntityDescriptor …>…</md:EntityDescriptor>', jit_role: 'assessor' }],
  },
);
export type CreateSsoConnectionBody = Static<typeof CreateSsoConnectionBody>;

export const UpdateSsoConnectionBody = Type.Object(
  {
    name: Type.Optional(Name()),
    type: Type.Optional(ConnectionType),
    issuer: Type.Optional(Issuer),
    client_id: Type.Optional(ClientId),
    client_secret: Type.Optional(ClientSecret),
    idp_metadata_xml: Type.Optional({ ...IdpMetadataXml, description: "SAML: the IdP's metadata imported anew (a certificate rotated, a URL moved)" }),
    scopes: Type.Optional(Scopes),
    enforce_sso: Type.Optional(Type.Boolean()),
    jit_role: Type.Optional(JitRole),
  },
  { additionalProperties: false, examples: [{ enforce_sso: true }] },
);
export type UpdateSsoConnectionBody = Static<typeof UpdateSsoConnectionBody>;

export const SsoDomainView = Type.Object({
  id: Uuid(),
  domain: Type.String(),
  verified: Type.Boolean(),
  verified_at: Nullable(Timestamp()),
  verification: Nullable(
    Type.Object(
      {
        record_name: Type.String({ description: 'The DNS name to publish a TXT record at' }),
        record_value: Type.String({ description: 'The TXT record value' }),
      },
      { description: 'The DNS TXT record that proves the domain, until it is verified (then null)' },
    ),
  ),
  created_at: Timestamp(),
});
export type SsoDomainView = Static<typeof SsoDomainView>;

export const CreateSsoDomainBody = Type.Object(
  { domain: Type.String({ minLength: 3, maxLength: 253, pattern: '^(?=.{3,253}$)([A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z]{2,63}$', description: 'An e-mail domain, e.g. bank.example' }) },
  { additionalProperties: false, examples: [{ domain: 'bank.example' }] },
);
export type CreateSsoDomainBody = Static<typeof CreateSsoDomainBody>;

const ConnectionParams = Type.Object({ connection_id: Uuid('Id of the SSO connection') });
const DomainParams = Type.Object({ domain_id: Uuid('Id of the e-mail domain') });
const EnterpriseParams = Type.Object({ enterprise_id: Uuid('Id of the enterprise') });
const ListQuery = Type.Object({ ...PaginationQuery });
export type SsoListQuery = Static<typeof ListQuery>;
// SSO's settings sit with SCIM's in the document: the enterprise's identity integrations.
const [WHO, tags] = [' Client admin of the enterprise, in person.', ['scim']];
const ConnectionData = Type.Object({ data: SsoConnectionView });
const ConnectionChange = Type.Object({ data: SsoConnectionView, message: Message });
const DomainChange = Type.Object({ data: SsoDomainView, message: Message });

/** One operation of SSO's settings: its name, summary and description (the client admin's), and its parts. */
const operation = <P extends object>(operationId: string, summary: string, description: string, parts: P) => ({ summary, description: description + WHO, operationId, tags, ...parts });
const page = <T extends TSchema>(item: T) => ({ querystring: ListQuery, response: { 200: Type.Object({ data: Type.Array(item), pagination: Pagination }), ...errorResponses([]) } });

export const listSsoConnectionsSchema = operation('sso.connections.list', 'List SSO connections', "The enterprise's single sign-on connections, newest first (never their secrets).", page(SsoConnectionView));

const CREATE_CONNECTION =
  "A connection to the enterprise's identity provider. OIDC (type oidc, the default): the issuer is discovered before the connection is kept (422 when it cannot be); register `redirect_uri` at the provider. " +
  "SAML 2.0 (type saml): the IdP's metadata XML is imported (422 when it states no entity id, no HTTP-Redirect SingleSignOnService or no signing certificate); enter `saml.sp_entity_id` and `saml.acs_url` at the IdP.";
export const createSsoConnectionSchema = operation('sso.connections.create', 'Create an SSO connection (OIDC or SAML)', CREATE_CONNECTION, { body: CreateSsoConnectionBody, response: { 201: ConnectionChange, ...errorResponses([409, 415, 422]) } });

export const getSsoConnectionSchema = operation('sso.connections.get', 'Get an SSO connection', 'One connection, without its secret.', {
  params: ConnectionParams,
  response: { 200: ConnectionData, ...errorResponses([404]) },
});

export const updateSsoConnectionSchema = operation(
  'sso.connections.update',
  'Change an SSO connection',
  'Change its name, provider, client, scopes, enforcement or just-in-time role; a SAML connection imports its IdP metadata anew. A new issuer is discovered first. The protocol cannot change (422).',
  { params: ConnectionParams, body: UpdateSsoConnectionBody, response: { 200: ConnectionChange, ...errorResponses([404, 409, 415, 422]) } },
);

export const deleteSsoConnectionSchema = operation(
  'sso.connections.delete',
  'Delete an SSO connection',
  'Removes the connection; sign-ins under way through it fail. Sessions it started live on until they end.',
  { params: ConnectionParams, response: { 200: MessageOnly, ...errorResponses([404]) } },
);

export const listSsoDomainsSchema = operation('sso.domains.list', 'List e-mail domains', "The enterprise's e-mail domains for single sign-on, verified or awaiting their DNS record, by name.", page(SsoDomainView));

const CLAIM_DOMAIN =
  'Claims a domain for the enterprise; it is verified by publishing the TXT record answered (then `verify`), or by a super admin. Several enterprises may claim a domain, one verifies it.';
export const createSsoDomainSchema = operation('sso.domains.create', 'Claim an e-mail domain', CLAIM_DOMAIN, { body: CreateSsoDomainBody, response: { 201: DomainChange, ...errorResponses([409, 415, 422]) } });

export const verifySsoDomainSchema = operation(
  'sso.domains.verify',
  'Verify an e-mail domain',
  "Looks up the domain's TXT record; verified when it holds the value answered at its claim (422 otherwise; 409 when another enterprise verified it first).",
  { params: DomainParams, response: { 200: DomainChange, ...errorResponses([404, 409, 422]) } },
);

export const deleteSsoDomainSchema = operation(
  'sso.domains.delete',
  'Remove an e-mail domain',
  "Its people are no longer routed to the enterprise's provider, nor accepted from it, and no longer held to enforced SSO.",
  { params: DomainParams, response: { 200: MessageOnly, ...errorResponses([404]) } },
);

export const attestSsoDomainSchema = {
  summary: "Verify an enterprise's e-mail domain (super admin)",
  description: "Marks a claimed domain verified without its DNS record: the platform operator's attestation, for an enterprise that cannot publish one. Super admins only.",
  operationId: 'admin.sso_domains.verify',
  tags: ['admin'],
  params: DomainParams,
  response: { 200: DomainChange, ...errorResponses([404, 409]) },
};

export const listEnterpriseSsoDomainsSchema = {
  summary: "List an enterprise's e-mail domains (super admin)",
  description: "The e-mail domains an enterprise claimed for single sign-on, verified or awaiting their DNS record, by name: those a super admin may verify. Super admins only.",
  operationId: 'admin.sso_domains.list',
  tags: ['admin'],
  params: EnterpriseParams,
  querystring: ListQuery,
  response: { 200: Type.Object({ data: Type.Array(SsoDomainView), pagination: Pagination }), ...errorResponses([404]) },
};
