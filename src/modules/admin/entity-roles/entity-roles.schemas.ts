import { Type } from 'typebox';
import { DataResponse, ListResponse, MessageOnly, Nullable, Timestamp, Uuid, errorResponses } from '../../../platform/http/schemas.js';

const UserParams = Type.Object({ user_id: Uuid() });
const RoleParams = Type.Object({ user_id: Uuid(), role_id: Uuid('The entity role assignment') });

export const EntityRole = Type.Object({
  id: Uuid(),
  user_id: Uuid(),
  legal_entity_id: Uuid(),
  business_unit_id: Nullable(Uuid('null: the whole legal entity')),
  created_at: Timestamp(),
});

export const EntityRoleListItem = Type.Object({
  ...EntityRole.properties,
  legal_entity_name: Type.String(),
  business_unit_name: Nullable(Type.String()),
});

const description = 'Super admin for any user, client admin for users of its own enterprise; another enterprise answers 404 (D5, D9.4).';

export const listEntityRolesSchema = {
  summary: "List a user's entity roles",
  description,
  operationId: 'admin.entity_roles.list',
  tags: ['admin'],
  params: UserParams,
  response: { 200: ListResponse(EntityRoleListItem), ...errorResponses([404]) },
};

export const CreateEntityRoleBody = Type.Object(
  {
    legal_entity_id: Uuid('A legal entity of the user\'s enterprise'),
    business_unit_id: Type.Optional(Uuid('A business unit of that legal entity; omitted: the whole entity')),
  },
  { additionalProperties: false },
);

export const createEntityRoleSchema = {
  summary: 'Assign a legal entity (or one of its business units) to a user',
  description:
    `${description} A legal entity or unit that is not the enterprise's, or a unit of another entity, is 400 ` +
    'INVALID_REFERENCE; the same assignment twice is 409.',
  operationId: 'admin.entity_roles.create',
  tags: ['admin'],
  params: UserParams,
  body: CreateEntityRoleBody,
  response: { 201: DataResponse(EntityRole), ...errorResponses([404, 409, 422]) },
};

export const deleteEntityRoleSchema = {
  summary: 'Remove an entity role from a user',
  description,
  operationId: 'admin.entity_roles.delete',
  tags: ['admin'],
  params: RoleParams,
  response: { 200: MessageOnly, ...errorResponses([404]) },
};
