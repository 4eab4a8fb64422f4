import { Type, type Static } from 'typebox';
import { FreeText, Message, Nullable, PageOnly, PaginationQuery, Timestamp, Uuid, errorResponses } from '../../platform/http/schemas.js';

const AlertType = Type.Enum(['enterprise_health', 'authentication', 'performance', 'database', 'system'], {
  description: 'What the alert is about (D9.5 states the condition of each type)',
});
const AlertSeverity = Type.Enum(['info', 'warning', 'error', 'critical'], { description: 'How grave the condition is' });
const AlertStatus = Type.Enum(['open', 'acknowledged', 'resolved'], { description: 'Where the alert is in its life (3.3)' });

export const AlertView = Type.Object({
  id: Uuid(),
  type: AlertType,
  severity: AlertSeverity,
  title: Type.String({ description: 'One-line summary' }),
  message: Type.String({ description: 'What was observed' }),
  enterprise_id: Nullable(Uuid('The enterprise concerned; null for platform-wide alerts')),
  status: AlertStatus,
  created_at: Timestamp('When the alert was raised'),
  acknowledged_at: Nullable(Timestamp('When it was acknowledged')),
  acknowledged_by: Nullable(Uuid('The user id of the super admin who acknowledged it')),
  notes: Nullable(Type.String({ description: 'Notes given on acknowledgement' })),
  resolved_at: Nullable(Timestamp('When it was resolved')),
  resolved_by: Nullable(Uuid('The user id of the super admin who resolved it')),
  resolution: Nullable(Type.String({ description: 'Resolution given on resolving' })),
});

export const ListAlertsQuery = Type.Object({
  status: Type.Optional(AlertStatus),
  severity: Type.Optional(AlertSeverity),
  ...PaginationQuery,
});
export type ListAlertsQuery = Static<typeof ListAlertsQuery>;

/**
 * One object rather than a union of two, so that a mismatch reads as one precise field error
 * (`notes` with `resolved` → 422 on `notes`); the service checks the pairing.
 */
export const UpdateAlertBody = Type.Object(
  {
    status: Type.Enum(['acknowledged', 'resolved'], {
      description: 'acknowledged (only from open) or resolved (from open or acknowledged); otherwise 409 INVALID_STATE',
    }),
    notes: Type.Optional(FreeText('Only with status acknowledged: notes kept on the alert, at most 5,000 characters')),
    resolution: Type.Optional(FreeText('Only with status resolved: how it was resolved, at most 5,000 characters')),
  },
  { additionalProperties: false },
);
export type UpdateAlertBody = Static<typeof UpdateAlertBody>;

/** The fields of the change made: the acknowledgement's three, or the resolution's three. */
export const AlertChangeView = Type.Object({
  id: Uuid(),
  status: Type.Enum(['acknowledged', 'resolved'], { description: 'The new status' }),
  acknowledged_at: Type.Optional(Timestamp('On acknowledgement')),
  acknowledged_by: Type.Optional(Uuid('On acknowledgement: the caller')),
  notes: Type.Optional(Nullable(Type.String({ description: 'On acknowledgement' }))),
  resolved_at: Type.Optional(Timestamp('On resolution')),
  resolved_by: Type.Optional(Uuid('On resolution: the caller')),
  resolution: Type.Optional(Nullable(Type.String({ description: 'On resolution' }))),
});

export const listAlertsSchema = {
  summary: 'List system alerts',
  description:
    'Alerts raised by the service (D9.5), newest first, filtered by status and severity. Super admin only.',
  operationId: 'admin.alerts.list',
  tags: ['admin'],
  querystring: ListAlertsQuery,
  response: { 200: PageOnly(AlertView, { description: 'One page of alerts' }), ...errorResponses([]) },
};

export const updateAlertSchema = {
  summary: 'Acknowledge or resolve a system alert',
  description:
    'Acknowledge an open alert (with optional notes) or resolve an open or acknowledged one (with an optional ' +
    'resolution). A resolved alert frees its cause: the same condition may raise a new alert. Super admin only.',
  operationId: 'admin.alerts.update',
  tags: ['admin'],
  params: Type.Object({ alert_id: Uuid('Id of the alert') }),
  body: UpdateAlertBody,
  response: {
    200: Type.Object({ data: AlertChangeView, message: Message }, { description: 'The change made' }),
    ...errorResponses([404, 409, 415, 422]),
  },
};
