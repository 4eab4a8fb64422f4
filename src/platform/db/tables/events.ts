import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt } from './enterprises.js';

/** An event not yet fanned out to its endpoints (platform/events writes and removes it). */
export interface EventOutboxTable {
  /** bigint: pg hands it back as text; it only ever orders rows and is compared in SQL. */
  seq: ColumnType<string, never, never>;
  id: Generated<string>;
  enterprise_id: string;
  type: string;
  /** The JSON text delivered and signed, byte for byte. */
  body: string;
  created_at: CreatedAt;
}

/** Keys of events announced once only (an action overdue for a due date). */
export interface EventKeysTable {
  enterprise_id: string;
  key: string;
  created_at: CreatedAt;
}

/** The transactional outbox, owned by platform/events: every module emits through it in its own transaction. */
export interface EventsTables {
  event_outbox: EventOutboxTable;
  event_keys: EventKeysTable;
}
