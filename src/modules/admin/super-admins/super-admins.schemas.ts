import { Type } from 'typebox';
import { DataResponse, Email, ListResponse, MessageOnly, Name, Nullable, Timestamp, Uuid, errorResponses } from '../../../platform/http/schemas.js';
import { Invitation } from '../users/users.schemas.js';

export const SuperAdmin = Type.Object({
  user_id: Uuid('The user'),
  email: Type.String(),
  full_name: Type.String(),
  created_at: Timestamp('When the identity was created'),
  last_login: Nullable(Timestamp('Last sign-in; null before the first')),
  has_password: Type.Boolean({ description: 'false until the invited super admin has set a password' }),
});

export const listSuperAdminsSchema = {
  summary: 'List the active super admins',
  description: 'Super admins only. Oldest first, so the bootstrap super admin leads.',
  operationId: 'admin.super_admins.list',
  tags: ['admin'],
  response: { 200: ListResponse(SuperAdmin), ...errorResponses([]) },
};

export const AddSuperAdminBody = Type.Object(
  {
    email: Email('E-mail address (case-insensitive)'),
    full_name: Name('Full name, used when the user is new'),
  },
  { additionalProperties: false, examples: [{ email: 'sam.ops@example.com', full_name: 'Sam Ops' }] },
);

export const AddedSuperAdmin = Type.Object({
  ...SuperAdmin.properties,
  invitation: Nullable(Invitation),
});

export const addSuperAdminSchema = {
  summary: 'Add a super admin',
  description:
    'An active user of that e-mail without an enterprise membership is promoted (200; invited too if they never set a password). Otherwise a new user is created (201) and ' +
    'invited by mail with a one-time link to set a password. An enterprise member cannot be promoted (409 CONFLICT): super admins ' +
    'belong to no enterprise. Already a super admin: 409 CONFLICT. Audited in the platform trail.',
  operationId: 'admin.super_admins.create',
  tags: ['admin'],
  body: AddSuperAdminBody,
  response: {
    200: { ...DataResponse(AddedSuperAdmin), description: 'An existing user promoted' },
    201: { ...DataResponse(AddedSuperAdmin), description: 'A new user created and invited' },
    ...errorResponses([409, 422]),
  },
};

export const removeSuperAdminSchema = {
  summary: 'Remove a super admin',
  description:
    'The user stays, without the super admin role (their history stays too). Never the last active super admin (409 ' +
    'INVALID_STATE), so a super admin may remove themselves only while another one is active. Audited in the platform trail.',
  operationId: 'admin.super_admins.delete',
  tags: ['admin'],
  params: Type.Object({ user_id: Uuid('The user id of the super admin') }),
  response: { 200: MessageOnly, ...errorResponses([404, 409]) },
};
