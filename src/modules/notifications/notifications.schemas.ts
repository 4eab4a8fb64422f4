import { Type, type Static } from 'typebox';
import { NOTIFICATION_KINDS } from '../../platform/db/tables/notifications.js';
import { DataResponse, Nullable, Pagination, PaginationQuery, Timestamp, Uuid, UserRef, errorResponses } from '../../platform/http/schemas.js';

/** The notification centre (issue 49): what the service tells a person, newest first, read or not. */

const EXAMPLE = {
  id: '1c5e7a9b-3d2f-4b6a-8c0e-2f4a6b8c0d1e',
  kind: 'bra_submitted',
  bra_id: '7d3a2b9c-5e4f-4a0b-9c8d-3e4f5a6b7c8d',
  bra_name: 'Retail Banking BRA FY2026',
  mitigation_action_id: null,
  sub_control_id: null,
  risk_acceptance_id: null,
  subject: { type: 'bra', id: '7d3a2b9c-5e4f-4a0b-9c8d-3e4f5a6b7c8d', name: 'Retail Banking BRA FY2026' },
  link: '/bras/7d3a2b9c-5e4f-4a0b-9c8d-3e4f5a6b7c8d',
  title: 'Retail Banking BRA FY2026 awaits your review',
  body: null,
  actor_id: '2b7e4c1a-9d3f-4a6b-8c2e-5f1a0b3c4d5e',
  actor_user: { id: '2b7e4c1a-9d3f-4a6b-8c2e-5f1a0b3c4d5e', full_name: 'Priya Raman' },
  created_at: '2026-12-01T09:30:00.000Z',
  read_at: null,
};

export const NotificationView = Type.Object(
  {
    id: Uuid('The notification'),
    kind: Type.Enum([...NOTIFICATION_KINDS], {
      description:
        'bra_submitted: a BRA awaits your review; bra_returned, bra_approved, bra_cancelled: your BRA moved; bra_commented: a comment on a BRA you work on; ' +
        'action_assigned: an action was given to you; action_due_soon, action_overdue: your action falls due or is overdue; ' +
        'control_test_due: a sub-control is due for its test by its frequency; acceptance_expiring: a risk acceptance expires soon',
    }),
    bra_id: Nullable(Uuid('The BRA it is about, or the BRA of its action or acceptance (GET /bras/{id})')),
    bra_name: Nullable(Type.String()),
    mitigation_action_id: Nullable(Uuid('The action it is about (GET /mitigation-actions/{id})')),
    sub_control_id: Nullable(Uuid('The sub-control it is about (GET /controls/sub-controls/{id})')),
    risk_acceptance_id: Nullable(Uuid('The risk acceptance it is about (GET /risk-acceptances/{id})')),
    subject: Type.Object(
      {
        type: Type.Enum(['bra', 'mitigation_action', 'sub_control', 'risk_acceptance']),
        id: Uuid(),
        name: Type.String({ description: 'The BRA’s or sub-control’s name, the action’s text; an acceptance is named by its BRA' }),
      },
      { description: 'The most specific record it tells of' },
    ),
    link: Type.String({ description: 'Where the console opens it (a path of the console, as its mails link it): a BRA’s page or tab, an action in its BRA’s list, a sub-control’s page' }),
    title: Type.String({ description: 'What happened, in one line' }),
    body: Nullable(Type.String({ description: 'The return reason, or the comment' })),
    actor_id: Nullable(Uuid('Who caused it')),
    actor_user: Nullable(UserRef),
    created_at: Timestamp(),
    read_at: Nullable(Timestamp('When it was marked read; null while unread')),
  },
  { examples: [EXAMPLE] },
);
export type NotificationView = Static<typeof NotificationView>;

export const ListNotificationsQuery = Type.Object({
  ...PaginationQuery,
  unread_only: Type.Optional(Type.Boolean({ description: 'Only the unread ones' })),
});
export type ListNotificationsQuery = Static<typeof ListNotificationsQuery>;

export const NotificationsPage = Type.Object({
  data: Type.Array(NotificationView),
  pagination: Pagination,
  unread_count: Type.Integer({ minimum: 0, description: 'How many of the caller’s notifications are unread (whatever the filter)' }),
  message: Type.String(),
});

export const MarkReadBody = Type.Object(
  {
    ids: Type.Optional(Type.Array(Uuid(), { minItems: 1, maxItems: 100, uniqueItems: true, description: 'The notifications to mark read (the caller’s own; others are ignored)' })),
    all: Type.Optional(Type.Literal(true, { description: 'Mark every notification of the caller read' })),
  },
  { additionalProperties: false, examples: [{ ids: [EXAMPLE.id] }, { all: true }] },
);
export type MarkReadBody = Static<typeof MarkReadBody>;

const tags = ['notifications'];

export const listNotificationsSchema = {
  summary: 'My notifications',
  description: 'The caller’s notifications, newest first, paginated, with the unread count. Members of an enterprise only (403 for super admins and integrations).',
  operationId: 'notifications.list',
  tags,
  querystring: ListNotificationsQuery,
  response: { 200: NotificationsPage, ...errorResponses([]) },
};

export const markReadSchema = {
  summary: 'Mark notifications read',
  description: 'The named notifications of the caller (`ids`), or all of them (`all: true`); exactly one of the two, else 422. Notifications of anyone else are left alone. Answers how many were marked and the unread count.',
  operationId: 'notifications.mark_read',
  tags,
  body: MarkReadBody,
  response: {
    200: DataResponse(Type.Object({ marked: Type.Integer({ minimum: 0 }), unread_count: Type.Integer({ minimum: 0 }) })),
    ...errorResponses([413, 415, 422]),
  },
};
