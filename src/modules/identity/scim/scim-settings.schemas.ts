import { Type, type Static } from 'typebox';
import { Message, Name, Nullable, Pagination, PaginationQuery, Timestamp, Uuid, errorResponses } from '../../../platform/http/schemas.js';
import { SCIM_MAPPABLE_ROLES } from '../integrations.policy.js';

export const ScimTokenView = Type.Object({
  id: Uuid(),
  name: Type.String(),
  hint: Type.String({ description: "The token's first characters" }),
  expires_at: Nullable(Timestamp('null: until revoked')),
  last_used_at: Nullable(Timestamp()),
  last_used_ip: Nullable(Type.String()),
  revoked_at: Nullable(Timestamp()),
  created_by: Nullable(Uuid()),
  created_at: Timestamp(),
});
const IssuedScimToken = Type.Object({
  ...ScimTokenView.properties,
  token: Type.String({ description: 'The bearer token for the identity provider, shown only here (`rsk_scim_…`)', examples: ['rsk_scim_3f1e2d4c5b6a79808f7e6d5c4b3a2918_Q2hhbmdlIG1lIGFuZCBzaG93IG9ubHkgb25jZSBwbGVhc2U'] }),
  scim_base_url: Type.String({ description: "The tenant URL to give the identity provider: {base_url}/scim/v2" }),
});
export const IssueScimTokenBody = Type.Object(
  { name: Name('Which provider holds it, e.g. "Entra ID"'), expires_at: Type.Optional(Timestamp('Optional: when it stops working')) },
  { additionalProperties: false, examples: [{ name: 'Entra ID provisioning' }] },
);
export type IssueScimTokenBody = Static<typeof IssueScimTokenBody>;

const Assignment = Type.Object({ legal_entity_id: Uuid(), name: Type.String(), business_unit_id: Nullable(Uuid()), business_unit_name: Nullable(Type.String()) });
export const ScimGroupView = Type.Object({
  id: Uuid('The group as the provider knows it (its SCIM id)'),
  display_name: Type.String(),
  external_id: Nullable(Type.String()),
  role: Nullable(Type.String({ description: 'The role its members get (assessor or reviewer); null: not mapped' })),
  entity_assignments: Type.Array(Assignment),
  member_count: Type.Integer(),
  created_at: Timestamp(),
  updated_at: Timestamp(),
});
export type ScimGroupView = Static<typeof ScimGroupView>;

export const UpdateGroupMappingBody = Type.Object(
  {
    role: Type.Optional(Nullable(Type.Enum([...SCIM_MAPPABLE_ROLES], { description: 'assessor or reviewer (never admin: D5); null unmaps the group' }))),
    entity_assignments: Type.Optional(
      Type.Array(
        Type.Object({ legal_entity_id: Uuid(), business_unit_id: Type.Optional(Nullable(Uuid())) }, { additionalProperties: false }),
        { maxItems: 200, description: 'The legal entities (or units) its members are assigned to; replaced as a whole' },
      ),
    ),
  },
  { additionalProperties: false, examples: [{ role: 'assessor', entity_assignments: [{ legal_entity_id: '7d1c4c4e-5b0a-4d7e-9a57-1f0d8f6c2b11' }] }] },
);
export type UpdateGroupMappingBody = Static<typeof UpdateGroupMappingBody>;

const WHO = ' Client admin of the enterprise, in person.';
const tags = ['scim'];
const TokenParams = Type.Object({ scim_token_id: Uuid('Id of the SCIM token') });
const GroupParams = Type.Object({ group_id: Uuid('Id of the pushed group') });
const ListQuery = Type.Object({ ...PaginationQuery });
export type ScimListQuery = Static<typeof ListQuery>;

export const listScimTokensSchema = {
  summary: 'List SCIM tokens',
  description: "The enterprise's SCIM bearer tokens, newest first (never the tokens themselves)." + WHO,
  operationId: 'scim.tokens.list',
  tags,
  querystring: ListQuery,
  response: { 200: Type.Object({ data: Type.Array(ScimTokenView), pagination: Pagination }), ...errorResponses([]) },
};

export const issueScimTokenSchema = {
  summary: 'Issue a SCIM token',
  description: 'A bearer token for the identity provider that provisions this enterprise (Entra ID, Okta), with the tenant URL. Shown only in this answer.' + WHO,
  operationId: 'scim.tokens.issue',
  tags,
  body: IssueScimTokenBody,
  response: { 201: Type.Object({ data: IssuedScimToken, message: Message }), ...errorResponses([415, 422]) },
};

export const revokeScimTokenSchema = {
  summary: 'Revoke a SCIM token',
  description: 'Refused from its next request.' + WHO,
  operationId: 'scim.tokens.revoke',
  tags,
  params: TokenParams,
  response: { 200: Type.Object({ data: ScimTokenView, message: Message }), ...errorResponses([404]) },
};

export const listScimGroupsSchema = {
  summary: 'List the groups the identity provider pushed',
  description: 'With their mapping (role and entity assignments) and member counts, by name.' + WHO,
  operationId: 'scim.groups.list',
  tags,
  querystring: ListQuery,
  response: { 200: Type.Object({ data: Type.Array(ScimGroupView), pagination: Pagination }), ...errorResponses([]) },
};

export const getScimGroupSchema = {
  summary: 'Get a pushed group and its mapping',
  operationId: 'scim.groups.get',
  description: 'One group with its role, entity assignments and member count.' + WHO,
  tags,
  params: GroupParams,
  response: { 200: Type.Object({ data: ScimGroupView }), ...errorResponses([404]) },
};

export const updateScimGroupSchema = {
  summary: "Map a pushed group to a role and entities",
  description: "Its members' roles and entity roles follow at once (the strongest mapped role wins; a client admin's role is never changed)." + WHO,
  operationId: 'scim.groups.update',
  tags,
  params: GroupParams,
  body: UpdateGroupMappingBody,
  response: { 200: Type.Object({ data: ScimGroupView, message: Message }), ...errorResponses([404, 415, 422]) },
};
