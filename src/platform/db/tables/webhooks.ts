import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, UpdatedAt } from './enterprises.js';

export interface WebhookEndpointsTable {
  id: Generated<string>;
  enterprise_id: string;
  url: string;
  event_types: string[];
  description: string | null;
  enabled: Generated<boolean>;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  failing_since: Date | null;
  disabled_reason: string | null;
  lease_until: Date | null;
  /** One more at every change a client sees (its ETag; If-Match), not at the dispatcher's bookkeeping. */
  row_version: Generated<number>;
  created_by: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface WebhookDeliveriesTable {
  id: Generated<string>;
  enterprise_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  body: string;
  /** bigint (text from pg): the event's place in the outbox order, which deliveries keep per endpoint. */
  seq: ColumnType<string, string, never>;
  status: Generated<DeliveryStatus>;
  attempt_count: Generated<number>;
  last_status_code: number | null;
  last_error: string | null;
  last_attempt_at: Date | null;
  first_attempt_at: Date | null;
  next_attempt_at: Date;
  delivered_at: Date | null;
  created_at: CreatedAt;
}

/** Owned by the webhooks module (src/modules/webhooks). */
export interface WebhooksTables {
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
}
