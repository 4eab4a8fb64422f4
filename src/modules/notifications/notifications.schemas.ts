import { Type, type Static } from 'typebox';
import { DataResponse, Nullable, Pagination, PaginationQuery, Timestamp, Uuid, UserRef, errorResponses } from '../../platform/http/schemas.js';

/** The notification centre (issue 49): what the service tells a person, newest first, read or not. */

const EXAMPLE = {
  id: '1c5e7a9b-3d2f-4b6a-8c0e-2f4a6b8c0d1e',
  kind: 'bra_submitted',
  bra_id: '7d3a2b9c-5e4f-4a0b-9c8d-3e4f5a6b7c8d',
  bra_name: 'Retail Banking BRA FY2026',
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
    kind: Type.Enum(['bra_submitted', 'bra_returned', 'bra_approved', 'bra_cancelled', 'bra_commented'], {
      description: 'bra_submitted: a BRA awaits your review; bra_returned, bra_approved, bra_cancelled: your BRA moved; bra_commented: a comment on a BRA you work on',
    }),
    bra_id: Uuid('The BRA it is about (GET /bras/{id})'),
    bra_name: Type.String(),
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
