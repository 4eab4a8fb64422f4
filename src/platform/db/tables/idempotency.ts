import type { ColumnType } from 'kysely';

export interface IdempotencyKeysTable {
  user_id: string;
  idempotency_key: string;
  fingerprint: string;
  response_status: number;
  /** The headers a replay repeats (content type, ETag), lower-case names. */
  response_headers: ColumnType<Record<string, string>, string, string>;
  /** The first answer's body, byte for byte. */
  response_body: string;
  created_at: ColumnType<Date, never, never>;
  expires_at: Date;
}

/** Written by the platform's idempotency layer (src/platform/idempotency/) only. */
export interface IdempotencyTables {
  idempotency_keys: IdempotencyKeysTable;
}
