import { Type } from 'typebox';
import {
  Abilities,
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

/** The member the examples show. */
const DANA = {
  id: '5b0b6c1e-8a1f-4f7e-9a55-2f0c1d3e4b5a',
  user_id: '0e9f3c2a-1b4d-4c6e-8f7a-9b0c1d2e3f4a',
  email: 'dana.lee@example.com',
  full_name: 'Dana Lee',
};

export const Invitation = Type.Object(
  {
    sent_at: Timestamp('When the invitation was issued; its mail is sent right after, from the outbox'),
    expires_at: Timestamp('When its link stops working (7 days later)'),
  },
  { description: 'The invitation mail with a one-time link to set a password' },
);

export const InvitationStatus = Type.Object(
  {
    ...Invitation.properties,
    accepted_at: Nullable(Timestamp('When its link was followed')),
    delivery_status: Type.Union([Type.Literal('queued'), Type.Literal('sent'), Type.Literal('failed'), Type.Literal('dropped')], {
      description:
        'queued: not sent yet; sent: handed to the mail server (or written to DATA_DIR/mail); failed: the last attempt failed and ' +
        'the service keeps retrying (delivery_error says why); dropped: not sent because the link was replaced or a password was set first',
    }),
    delivery_attempts: Type.Integer({ description: 'Send attempts so far' }),
    delivery_error: Nullable(Type.String({ description: 'Why the last attempt failed' })),
    delivered_at: Nullable(Timestamp('When the mail was sent')),
  },
  { description: 'The latest invitation to this enterprise and the state of its mail; null when none was sent' },
);

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
  invitation: Nullable(InvitationStatus),
  abilities: Abilities({
    change_role: 'Give them another role (PATCH): whoever may add a member of the role they have and of another; never oneself',
    deactivate: 'Deactivate them (DELETE): their enterprise\'s administrators, while active; never oneself',
    reactivate: 'Reactivate them: whoever may add a member of their role, while deactivated',
    manage_entity_roles: 'Grant and remove their entity access (/admin/users/{user_id}/entity-roles), while active',
  }),
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
  invitation: Invitation,
});

export const createUserSchema = {
  summary: 'Add a user to an enterprise',
  description:
    'Creates the user and the membership. Super admin may add any role; client admin only assessors and reviewers, ' +
    'in its own enterprise (4.7, D9.3). The user gets an invitation mail with a one-time link (7 days) that signs them in to ' +
    'set a password (PUT /auth/v1/user); `invitation` says when it was issued and when it expires. The provider admin call ' +
    '(PUT /auth/v1/admin/users/{user_id}) still sets a password directly.',
  operationId: 'admin.users.create',
  tags: ['admin'],
  params: EnterpriseParams,
  body: CreateUserBody,
  response: {
    201: {
      ...DataResponse(CreatedUser),
      examples: [
        {
          data: {
            ...DANA,
            role: 'assessor',
            created_at: '2026-11-27T09:00:00.000Z',
            invitation: { sent_at: '2026-11-27T09:00:00.000Z', expires_at: '2026-12-04T09:00:00.000Z' },
          },
          message: 'User created',
        },
      ],
    },
    ...errorResponses([404, 409, 422]),
  },
};

export const ResentInvitation = Type.Object({ user_id: Uuid(), email: Type.String(), invitation: Invitation });

export const resendInvitationSchema = {
  summary: 'Resend the invitation of a user',
  description:
    'A new invitation mail with a new link; earlier links of the user stop working. Same roles as adding the user (D5): ' +
    'a client admin for assessors and reviewers of its enterprise. A user who has set a password already: 409 INVALID_STATE ' +
    '(they use password recovery).',
  operationId: 'admin.users.invitation.resend',
  tags: ['admin'],
  params: MemberParams,
  response: {
    200: {
      ...DataResponse(ResentInvitation),
      examples: [
        {
          data: {
            user_id: '0e9f3c2a-1b4d-4c6e-8f7a-9b0c1d2e3f4a',
            email: 'dana.lee@example.com',
            invitation: { sent_at: '2026-11-28T09:00:00.000Z', expires_at: '2026-12-05T09:00:00.000Z' },
          },
          message: 'Invitation sent',
        },
      ],
    },
    ...errorResponses([404, 409]),
  },
};

export const ReactivatedUser = Type.Object({
  id: Uuid('The enterprise membership (the same as before)'),
  user_id: Uuid('The same identity as before'),
  email: Type.String(),
  full_name: Type.String(),
  role: Role('The role the user had'),
  entity_assignments: Type.Integer({ description: 'How many entity assignments the user has back' }),
});

export const reactivateUserSchema = {
  summary: 'Reactivate a deactivated user',
  description:
    'Restores the same identity, membership, role and entity assignments (and the password, if one was set). Super admin for any ' +
    'role; client admin of the enterprise for assessors and reviewers. 409 INVALID_STATE for an active user; 409 CONFLICT when ' +
    'the e-mail now belongs to another active user.',
  operationId: 'admin.users.reactivate',
  tags: ['admin'],
  params: MemberParams,
  response: { 200: DataResponse(ReactivatedUser), ...errorResponses([404, 409]) },
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

export const ChangeRoleBody = Type.Object(
  { role: Role('The new role: admin (super admin only), assessor or reviewer') },
  { additionalProperties: false, examples: [{ role: 'reviewer' }] },
);

export const changeRoleSchema = {
  summary: "Change a member's role",
  description:
    'The same people as adding a member of the role the member has and of the new one (D5): a super admin any change; a ' +
    'client admin of the enterprise between assessor and reviewer only. Never the caller\'s own membership (409 INVALID_STATE). ' +
    'A member of another enterprise, a deactivated or unknown user: 404. Takes If-Match (the ETag of an earlier answer; 412 ' +
    'when the member changed since) and answers the member as the list shows them, with their new ETag. The member\'s ' +
    'sessions stay open with the new role: the service reads the role from its own records at every request, never from a ' +
    'token, so their next request (with the access token they hold, or one refreshed) has the new rights. The same role ' +
    'again changes nothing and writes no audit entry.',
  operationId: 'admin.users.update',
  tags: ['admin'],
  params: MemberParams,
  body: ChangeRoleBody,
  response: {
    200: {
      ...DataResponse(EnterpriseUser),
      examples: [
        {
          data: {
            ...DANA,
            role: 'reviewer',
            created_at: '2026-11-27T09:00:00.000Z',
            last_login: '2026-11-28T08:12:00.000Z',
            active: true,
            deactivated_at: null,
            entity_assignments: [{ legal_entity_id: '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f', name: 'Acme Payments Ltd', business_unit_id: null, business_unit_name: null }],
            invitation: {
              sent_at: '2026-11-27T09:00:00.000Z',
              expires_at: '2026-12-04T09:00:00.000Z',
              accepted_at: '2026-11-27T10:30:00.000Z',
              delivery_status: 'sent',
              delivery_attempts: 1,
              delivery_error: null,
              delivered_at: '2026-11-27T09:00:02.000Z',
            },
            abilities: { change_role: true, deactivate: true, reactivate: false, manage_entity_roles: true },
          },
          message: 'Role changed',
        },
      ],
    },
    ...errorResponses([404, 409, 422]),
  },
};
