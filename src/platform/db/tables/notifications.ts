import type { Generated } from 'kysely';
import type { CreatedAt } from './enterprises.js';

/** What a notification tells of (issue 49): the review loop's moves and comments. */
export type NotificationKind = 'bra_submitted' | 'bra_returned' | 'bra_approved' | 'bra_cancelled' | 'bra_commented';

export interface NotificationsTable {
  id: Generated<string>;
  enterprise_id: string;
  user_id: string;
  kind: NotificationKind;
  bra_id: string;
  title: string;
  body: string | null;
  actor_id: string | null;
  created_at: CreatedAt;
  read_at: Date | null;
}

export interface NotificationsTables {
  notifications: NotificationsTable;
}
