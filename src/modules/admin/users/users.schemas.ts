import { Type } from 'typebox';
import {
  DataResponse,
  Email,
  ListResponse,
  MessageOnly,
  Name,
  Nullable,
  Timestamp,
  Uuid,
  errorResponses,
} from '../../../platform/http/schemas.js';
import { EntityAssignmentView } from '../../me/me.schemas.js';

export const MEMBER_ROLES = ['admin', 'assessor', 'reviewer'] as const;

const Role = (description = 'admin, assessor or reviewer') => Type.Enum(MEMBER_ROLES, { description });

const EnterpriseParams = Type.Object({ enterprise_id: Uuid() });
const MemberParams = Type.Object({ enterprise_id: Uuid(), user_id: Uuid('The user id (not the membership id)') });

export const EnterpriseUser = Type.Object({
  id: Uuid('The enterprise membership'),
  user_id: Uuid('The user: what the identity provider admin call and the entity-role endpoints take'),
  email: Type.String(),
  full_name: Type.String(),
  role: Role(),
  created_at: Timestamp('When the user joined the enterprise'),
  last_login: Type.Optional(Timestamp('Last sign-in; absent when the user has never signed in')),
  active: Type.Boolean({ description: 'false for deactivated users (listed only with include_inactive=true)' }),
  deactivated_at: Nullable(Timestamp()),
  entity_assignments: Type.Array(EntityAssignmentView, { description: 'Legal entities (and units) the user is assigned to' }),
});

export const listUsersSchema = {
  summary: 'List the users of an enterprise',
  description:
    'Super admin for any enterprise, client admin for its own (D5). Newest first; active users only unless include_inactive=true.',
  operationId: 'admin.users.list',
  tags: ['admin'],
  params: EnterpriseParams,
  querystring: Type.Object({
    include_inactive: Type.Optional(Type.Boolean({ default: false, description: 'true also lists deactivated users' })),
  }),
  response: { 200: ListResponse(EnterpriseUser), ...errorResponses([404]) },
};

export const CreateUserBody = Type.Object(
  {
    email: Email('E-mail address, unique among active users (case-insensitive); stored lower-case'),
    full_name: Name('Full name'),
    role: Role('admin (super admin only), assessor or reviewer'),
  },
  { additionalProperties: false },
);

export const CreatedUser = Type.Object({
  id: Uuid('The enterprise membership'),
  user_id: Uuid('The user: PUT /auth/v1/admin/users/{user_id} sets the password'),
  email: Type.String(),
  full_name: Type.String(),
  role: Role(),
  created_at: Timestamp(),
});

export const createUserSchema = {
  summary: 'Add a user to an enterprise',
  description:
    'Creates the user and the membership. Super admin may add any role; client admin only assessors and reviewers, ' +
    'in its own enterprise (4.7, D9.3). The password is then set through the identity provider (PUT /auth/v1/admin/users/{user_id}).',
  operationId: 'admin.users.create',
  tags: ['admin'],
  params: EnterpriseParams,
  body: CreateUserBody,
  response: { 201: DataResponse(CreatedUser), ...errorResponses([404, 409, 422]) },
};

export const deactivateUserSchema = {
  summary: 'Deactivate a user',
  description:
    'Soft delete (D9.3): the user and membership become inactive, every session ends at once, the audit history stays. ' +
    'Callers cannot deactivate themselves (409).',
  operationId: 'admin.users.deactivate',
  tags: ['admin'],
  params: MemberParams,
  response: { 200: MessageOnly, ...errorResponses([404, 409]) },
};
