import type { Generated } from 'kysely';
import type { CreatedAt } from './enterprises.js';

/** The durable outbox of platform/mail: written in a change's transaction, sent after commit. */
export interface MailOutboxTable {
  id: Generated<string>;
  recipient: string;
  template: string;
  data: unknown;
  one_time_token_id: string | null;
  created_at: CreatedAt;
  attempts: Generated<number>;
  next_attempt_at: Generated<Date>;
  lease_until: Date | null;
  last_attempt_at: Date | null;
  last_error: string | null;
  sent_at: Date | null;
  dropped_at: Date | null;
}

export interface MailTables {
  mail_outbox: MailOutboxTable;
}
