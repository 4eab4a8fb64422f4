import { Type, type Static } from 'typebox';
import { FreeText, Message, MessageOnly, Name, Nullable, Pagination, PaginationQuery, Timestamp, Uuid, errorResponses } from '../../../platform/http/schemas.js';
import { MAX_ALLOWED_IPS } from './ip-allow-list.js';

const Role = Type.Enum(['admin', 'assessor', 'reviewer'], {
  description: 'What the account may do, as a member of that role would (D5); never super admin: admin, assessor or reviewer',
});
const AssignmentInput = Type.Object(
  {
    legal_entity_id: Uuid('A legal entity of the enterprise'),
    business_unit_id: Type.Optional(Nullable(Uuid('One of its business units; absent or null: the whole entity'))),
  },
  { additionalProperties: false },
);
const Assignments = Type.Array(AssignmentInput, {
  maxItems: 200,
  description: 'The legal entities (or units) an assessor or reviewer account is assigned to (D5 "assigned"); replaced as a whole',
});
const Assignment = Type.Object({
  legal_entity_id: Uuid(),
  name: Type.String({ description: 'The legal entity' }),
  business_unit_id: Nullable(Uuid()),
  business_unit_name: Nullable(Type.String()),
});

export const ServiceAccountView = Type.Object({
  id: Uuid('The account; its audit entries carry it as user_id'),
  name: Type.String(),
  description: Nullable(Type.String()),
  role: Type.String({ description: 'admin, assessor or reviewer' }),
  active: Type.Boolean({ description: 'false once deactivated (its tokens revoked)' }),
  entity_assignments: Type.Array(Assignment),
  live_tokens: Type.Integer({ description: 'Tokens neither revoked nor expired' }),
  last_used_at: Nullable(Timestamp('The last use of any of its tokens, to the minute')),
  created_by: Nullable(Uuid()),
  created_at: Timestamp(),
  updated_at: Timestamp(),
  deactivated_at: Nullable(Timestamp()),
});
export type ServiceAccountView = Static<typeof ServiceAccountView>;

export const CreateServiceAccountBody = Type.Object(
  {
    name: Name('A name unique among the enterprise\'s active accounts, e.g. the system that calls'),
    description: Type.Optional(FreeText('What the integration does')),
    role: Role,
    entity_assignments: Type.Optional(Assignments),
  },
  { additionalProperties: false, examples: [{ name: 'GRC data warehouse', role: 'reviewer', entity_assignments: [{ legal_entity_id: '7d1c4c4e-5b0a-4d7e-9a57-1f0d8f6c2b11' }] }] },
);
export type CreateServiceAccountBody = Static<typeof CreateServiceAccountBody>;

export const UpdateServiceAccountBody = Type.Object(
  {
    name: Type.Optional(Name()),
    description: Type.Optional(FreeText()),
    role: Type.Optional(Role),
    entity_assignments: Type.Optional(Assignments),
  },
  { additionalProperties: false, examples: [{ role: 'assessor' }] },
);
export type UpdateServiceAccountBody = Static<typeof UpdateServiceAccountBody>;

export const TokenView = Type.Object({
  id: Uuid(),
  service_account_id: Uuid(),
  name: Type.String(),
  hint: Type.String({ description: "The token's first characters, to tell it apart" }),
  status: Type.Enum(['active', 'expired', 'revoked']),
  expires_at: Timestamp(),
  allowed_ips: Nullable(Type.Array(Type.String(), { description: 'Addresses and CIDR ranges it is accepted from; null: any' })),
  last_used_at: Nullable(Timestamp('Its last use, to the minute')),
  last_used_ip: Nullable(Type.String()),
  revoked_at: Nullable(Timestamp()),
  rotated_from: Nullable(Uuid('The token this one replaced by a rotation')),
  created_by: Nullable(Uuid()),
  created_at: Timestamp(),
});
export type TokenView = Static<typeof TokenView>;

const TokenSecret = Type.String({
  description:
    'The token, shown only in this answer: `Authorization: Bearer <token>`. `rsk_sa_` + 32 hex digits + `_` + 43 characters, ' +
    'a shape secret scanners can match. Only a hash is stored.',
  examples: ['rsk_sa_3f1e2d4c5b6a79808f7e6d5c4b3a2918_Q2hhbmdlIG1lIGFuZCBzaG93IG9ubHkgb25jZSBwbGVhc2U'],
});
const IssuedToken = Type.Object({ ...TokenView.properties, token: TokenSecret });

const ExpiresAt = Timestamp('When the token stops working: required, in the future, at most SERVICE_ACCOUNT_TOKEN_MAX_DAYS (365 by default) ahead');
const AllowedIps = Type.Array(Type.String({ maxLength: 64 }), {
  maxItems: MAX_ALLOWED_IPS,
  description: 'Addresses and CIDR ranges (IPv4, IPv6) the token is accepted from; absent or empty: any address',
  examples: [['203.0.113.10', '10.20.0.0/16']],
});

export const IssueTokenBody = Type.Object(
  { name: Name('What the token is for, e.g. where it is kept'), expires_at: ExpiresAt, allowed_ips: Type.Optional(AllowedIps) },
  { additionalProperties: false, examples: [{ name: 'warehouse nightly load', expires_at: '2027-06-30T00:00:00Z', allowed_ips: ['203.0.113.10'] }] },
);
export type IssueTokenBody = Static<typeof IssueTokenBody>;

export const RotateTokenBody = Type.Object(
  {
    expires_at: ExpiresAt,
    overlap_hours: Type.Optional(
      Type.Integer({
        minimum: 0,
        description: 'How long the old token keeps working beside the new one (default 24, at most SERVICE_ACCOUNT_ROTATION_OVERLAP_MAX_HOURS, 168 by default); 0 stops it now',
      }),
    ),
  },
  { additionalProperties: false, examples: [{ expires_at: '2027-06-30T00:00:00Z', overlap_hours: 24 }] },
);
export type RotateTokenBody = Static<typeof RotateTokenBody>;

const AccountParams = Type.Object({ service_account_id: Uuid('Id of the service account') });
const TokenParams = Type.Object({ service_account_id: Uuid('Id of the service account'), token_id: Uuid('Id of the token') });
const ListQuery = Type.Object({
  ...PaginationQuery,
  include_inactive: Type.Optional(Type.Boolean({ description: 'true: deactivated accounts too' })),
});
export type ListServiceAccountsQuery = Static<typeof ListQuery>;
const TokenListQuery = Type.Object({ ...PaginationQuery });
export type TokenListQuery = Static<typeof TokenListQuery>;

const WHO = ' Client admin of the enterprise, in person (not a service account\'s token).';
const tags = ['service-accounts'];

export const createServiceAccountSchema = {
  summary: 'Create a service account',
  description: 'An identity for an integration, with a role (never super admin) and entity assignments. Issue it tokens next.' + WHO,
  operationId: 'service_accounts.create',
  tags,
  body: CreateServiceAccountBody,
  response: { 201: Type.Object({ data: ServiceAccountView, message: Message }), ...errorResponses([409, 415, 422]) },
};

export const listServiceAccountsSchema = {
  summary: 'List service accounts',
  description: "The enterprise's service accounts, newest first." + WHO,
  operationId: 'service_accounts.list',
  tags,
  querystring: ListQuery,
  response: { 200: Type.Object({ data: Type.Array(ServiceAccountView), pagination: Pagination }), ...errorResponses([]) },
};

export const getServiceAccountSchema = {
  summary: 'Get a service account',
  description: 'One account, with its assignments and a summary of its tokens.' + WHO,
  operationId: 'service_accounts.get',
  tags,
  params: AccountParams,
  response: { 200: Type.Object({ data: ServiceAccountView }), ...errorResponses([404]) },
};

export const updateServiceAccountSchema = {
  summary: 'Change a service account',
  description: 'Its name, description, role or entity assignments; its tokens carry the change from their next request.' + WHO,
  operationId: 'service_accounts.update',
  tags,
  params: AccountParams,
  body: UpdateServiceAccountBody,
  response: { 200: Type.Object({ data: ServiceAccountView, message: Message }), ...errorResponses([404, 409, 415, 422]) },
};

export const deactivateServiceAccountSchema = {
  summary: 'Deactivate a service account',
  description: 'Revokes every token of the account at once; the account and its history stay for the audit trail.' + WHO,
  operationId: 'service_accounts.deactivate',
  tags,
  params: AccountParams,
  response: { 200: MessageOnly, ...errorResponses([404, 409]) },
};

export const listTokensSchema = {
  summary: "List a service account's tokens",
  description: 'Every token of the account, newest first, with its status and last use (never the token itself).' + WHO,
  operationId: 'service_accounts.tokens.list',
  tags,
  params: AccountParams,
  querystring: TokenListQuery,
  response: { 200: Type.Object({ data: Type.Array(TokenView), pagination: Pagination }), ...errorResponses([404]) },
};

export const issueTokenSchema = {
  summary: 'Issue a token to a service account',
  description: 'The answer carries the token: it is never shown again. An expiry is required.' + WHO,
  operationId: 'service_accounts.tokens.issue',
  tags,
  params: AccountParams,
  body: IssueTokenBody,
  response: { 201: Type.Object({ data: IssuedToken, message: Message }), ...errorResponses([404, 409, 415, 422]) },
};

export const rotateTokenSchema = {
  summary: 'Rotate a token',
  description:
    'Issues its successor (same name and allow-list, the expiry given) and lets the old token work for the overlap, ' +
    'so the integration can switch without an outage. The answer carries the new token: it is never shown again.' +
    WHO,
  operationId: 'service_accounts.tokens.rotate',
  tags,
  params: TokenParams,
  body: RotateTokenBody,
  response: { 201: Type.Object({ data: IssuedToken, message: Message }), ...errorResponses([404, 409, 415, 422]) },
};

export const revokeTokenSchema = {
  summary: 'Revoke a token',
  description: 'The token is refused from its next request (within seconds on every instance).' + WHO,
  operationId: 'service_accounts.tokens.revoke',
  tags,
  params: TokenParams,
  response: { 200: Type.Object({ data: TokenView, message: Message }), ...errorResponses([404]) },
};
