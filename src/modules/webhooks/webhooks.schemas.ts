import { Type, type Static } from 'typebox';
import { EVENT_TYPES } from '../../platform/events/event-types.js';
import { FreeText, Message, MessageOnly, Nullable, Pagination, PaginationQuery, Timestamp, Uuid, errorResponses } from '../../platform/http/schemas.js';

/** What an endpoint may subscribe to: every event but `webhook.test`, which is sent on request to one endpoint. */
export const SUBSCRIBABLE_EVENT_TYPES = EVENT_TYPES.filter((type) => type !== 'webhook.test');

const EventType = Type.Enum([...SUBSCRIBABLE_EVENT_TYPES], { description: 'An event type the endpoint receives' });
const EventTypes = Type.Array(EventType, {
  minItems: 1,
  maxItems: SUBSCRIBABLE_EVENT_TYPES.length,
  uniqueItems: true,
  description: 'The event types sent to the endpoint, at least one',
  examples: [['bra.approved', 'risk.above_appetite', 'mitigation_action.overdue']],
});
const Url = Type.String({
  minLength: 1,
  maxLength: 2000,
  description:
    'Where events are POSTed: https, on a public address (checked again at every connection, after DNS). ' +
    'http and loopback addresses only when the service runs with WEBHOOKS_ALLOW_LOOPBACK=true (development).',
  examples: ['https://hooks.example.com/risk-events'],
});
const Description = FreeText('What the endpoint is for, at most 5,000 characters');
const Secret = Type.String({
  description:
    'The signing secret: `whsec_` + base64 of 32 random bytes. Shown only here; keep it to verify the ' +
    '`webhook-signature` header (Standard Webhooks).',
  examples: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw4wZ2s9kRz1c='],
});

export const WebhookView = Type.Object({
  id: Uuid(),
  url: Type.String({ description: 'Where events are POSTed' }),
  event_types: Type.Array(Type.String(), { description: 'The event types sent to it' }),
  description: Nullable(Type.String()),
  enabled: Type.Boolean({ description: 'false: nothing is sent (disabled by an admin, or by the service after 24 hours of failures)' }),
  disabled_reason: Nullable(Type.String({ description: 'Why the service disabled it; null otherwise' })),
  failing_since: Nullable(Timestamp('Since when its deliveries have failed without a success; null while healthy')),
  created_at: Timestamp(),
  updated_at: Timestamp(),
});
export type WebhookView = Static<typeof WebhookView>;

/** Only the create answer carries the secret. */
const WebhookWithSecret = Type.Object({ ...WebhookView.properties, secret: Secret });

export const CreateWebhookBody = Type.Object(
  { url: Url, event_types: EventTypes, description: Type.Optional(Description) },
  { additionalProperties: false },
);
export type CreateWebhookBody = Static<typeof CreateWebhookBody>;

export const UpdateWebhookBody = Type.Object(
  {
    url: Type.Optional(Url),
    event_types: Type.Optional(EventTypes),
    description: Type.Optional(Description),
    enabled: Type.Optional(Type.Boolean({ description: 'true enables it again (its queued deliveries resume); false pauses it' })),
  },
  { additionalProperties: false },
);
export type UpdateWebhookBody = Static<typeof UpdateWebhookBody>;

export const DeliveryView = Type.Object({
  id: Uuid(),
  event_id: Uuid('The event: the `webhook-id` header, the same on every attempt'),
  event_type: Type.String(),
  status: Type.Enum(['pending', 'delivered', 'failed'], {
    description: 'pending: queued or waiting for a retry; delivered: a 2xx answer; failed: 24 hours of failed attempts',
  }),
  attempt_count: Type.Integer({ description: 'Attempts made so far' }),
  last_status_code: Nullable(Type.Integer({ description: "The receiver's status code at the last attempt; null if it did not answer" })),
  last_error: Nullable(Type.String({ description: 'Why the last attempt failed; null after a success' })),
  last_attempt_at: Nullable(Timestamp()),
  next_attempt_at: Nullable(Timestamp('When it is tried next; null unless pending')),
  delivered_at: Nullable(Timestamp()),
  created_at: Timestamp('When it was queued'),
});

const WebhookParams = Type.Object({ webhook_id: Uuid('Id of the webhook endpoint') });
const DeliveryParams = Type.Object({ webhook_id: Uuid('Id of the webhook endpoint'), delivery_id: Uuid('Id of the delivery') });
const ListQuery = Type.Object({ ...PaginationQuery });
export type ListQuery = Static<typeof ListQuery>;

const CLIENT_ADMIN = ' Client admin of the enterprise.';

export const createWebhookSchema = {
  summary: 'Register a webhook endpoint',
  description:
    'Events of the types named are POSTed to the URL, signed the Standard Webhooks way (`webhook-id`, ' +
    '`webhook-timestamp`, `webhook-signature`). The answer carries the signing secret: it is never shown again.' +
    CLIENT_ADMIN,
  operationId: 'webhooks.create',
  tags: ['webhooks'],
  body: CreateWebhookBody,
  response: {
    201: Type.Object({ data: WebhookWithSecret, message: Message }, { description: 'The endpoint and its secret' }),
    ...errorResponses([415, 422]),
  },
};

export const listWebhooksSchema = {
  summary: 'List webhook endpoints',
  description: "The enterprise's endpoints, newest first (secrets are never listed)." + CLIENT_ADMIN,
  operationId: 'webhooks.list',
  tags: ['webhooks'],
  querystring: ListQuery,
  response: { 200: Type.Object({ data: Type.Array(WebhookView), pagination: Pagination }), ...errorResponses([]) },
};

export const getWebhookSchema = {
  summary: 'Get a webhook endpoint',
  operationId: 'webhooks.get',
  tags: ['webhooks'],
  description: 'One endpoint, without its secret.' + CLIENT_ADMIN,
  params: WebhookParams,
  response: { 200: Type.Object({ data: WebhookView }), ...errorResponses([404]) },
};

export const updateWebhookSchema = {
  summary: 'Change a webhook endpoint',
  description: 'Change its URL, event types or description, or disable and enable it. Enabling clears the failure state.' + CLIENT_ADMIN,
  operationId: 'webhooks.update',
  tags: ['webhooks'],
  params: WebhookParams,
  body: UpdateWebhookBody,
  response: { 200: Type.Object({ data: WebhookView, message: Message }), ...errorResponses([404, 415, 422]) },
};

export const deleteWebhookSchema = {
  summary: 'Delete a webhook endpoint',
  description: 'Removes the endpoint and its deliveries; nothing more is sent to it.' + CLIENT_ADMIN,
  operationId: 'webhooks.delete',
  tags: ['webhooks'],
  params: WebhookParams,
  response: { 200: MessageOnly, ...errorResponses([404]) },
};

export const rotateSecretSchema = {
  summary: 'Rotate the signing secret of a webhook endpoint',
  description:
    'A new secret, shown only here. For 24 hours deliveries carry two signatures (the new and the old secret), ' +
    'so the receiver can switch without losing events.' +
    CLIENT_ADMIN,
  operationId: 'webhooks.rotate_secret',
  tags: ['webhooks'],
  params: WebhookParams,
  response: {
    200: Type.Object({
      data: Type.Object({
        id: Uuid(),
        secret: Secret,
        previous_secret_expires_at: Timestamp('Until when the previous secret signs too'),
      }),
      message: Message,
    }),
    ...errorResponses([404]),
  },
};

export const testWebhookSchema = {
  summary: 'Send a test event to a webhook endpoint',
  description: 'Queues a `webhook.test` event for this endpoint alone, whatever its event types; the delivery shows how it went.' + CLIENT_ADMIN,
  operationId: 'webhooks.test',
  tags: ['webhooks'],
  params: WebhookParams,
  response: { 201: Type.Object({ data: DeliveryView, message: Message }), ...errorResponses([404, 409]) },
};

export const listDeliveriesSchema = {
  summary: 'List the deliveries of a webhook endpoint',
  description: 'Every event queued for the endpoint, newest first, with its attempts and their outcome.' + CLIENT_ADMIN,
  operationId: 'webhooks.deliveries.list',
  tags: ['webhooks'],
  params: WebhookParams,
  querystring: ListQuery,
  response: { 200: Type.Object({ data: Type.Array(DeliveryView), pagination: Pagination }), ...errorResponses([404]) },
};

export const retryDeliverySchema = {
  summary: 'Retry a delivery',
  description:
    'Queues the delivery again now, with a fresh 24 hours of retries (the same event id, so receivers can drop ' +
    'a duplicate). The endpoint must be enabled (409 otherwise).' +
    CLIENT_ADMIN,
  operationId: 'webhooks.deliveries.retry',
  tags: ['webhooks'],
  params: DeliveryParams,
  response: { 200: Type.Object({ data: DeliveryView, message: Message }), ...errorResponses([404, 409]) },
};
