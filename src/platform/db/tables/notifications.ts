import type { Generated } from 'kysely';
import type { CreatedAt } from './enterprises.js';

/** The review loop's moves and comments (a notice at the change). */
export const REVIEW_NOTIFICATION_KINDS = ['bra_submitted', 'bra_returned', 'bra_approved', 'bra_cancelled', 'bra_commented'] as const;
/** What the daily rounds remind people of, and an action given to someone. */
export const REMINDER_NOTIFICATION_KINDS = ['action_assigned', 'action_due_soon', 'action_overdue', 'control_test_due', 'acceptance_expiring'] as const;
export const NOTIFICATION_KINDS = [...REVIEW_NOTIFICATION_KINDS, ...REMINDER_NOTIFICATION_KINDS] as const;

/** What a notification tells of (issue 49). */
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** How a person hears of a kind besides the console: a mail at once, the daily digest, or not by mail. */
export const NOTIFICATION_DELIVERIES = ['immediate', 'digest', 'off'] as const;
export type NotificationDelivery = (typeof NOTIFICATION_DELIVERIES)[number];

export interface NotificationsTable {
  id: Generated<string>;
  enterprise_id: string;
  user_id: string;
  kind: NotificationKind;
  /** The subject: at least one of the four; an action's or an acceptance's BRA is kept beside it. */
  bra_id: string | null;
  mitigation_action_id: string | null;
  sub_control_id: string | null;
  risk_acceptance_id: string | null;
  /** A reminder's period (once per recipient, kind, subject and period); null for a notice of a change. */
  period: string | null;
  title: string;
  body: string | null;
  actor_id: string | null;
  created_at: CreatedAt;
  read_at: Date | null;
  /** The recipient's effective delivery when it was written (notification-delivery.ts). */
  delivery: NotificationDelivery;
  /** When mail took it: its own mail (immediate) or the digest round that took it; null while it waits or for 'off'. */
  mailed_at: Date | null;
}

/** A person's own choice per kind (absent: the enterprise's default, else the built-in one). */
export interface NotificationPreferencesTable {
  enterprise_id: string;
  user_id: string;
  kind: NotificationKind;
  delivery: NotificationDelivery;
  updated_at: Generated<Date>;
}

/** The enterprise's default per kind, set by a client admin (absent: the built-in one). */
export interface NotificationDefaultsTable {
  enterprise_id: string;
  kind: NotificationKind;
  delivery: NotificationDelivery;
  updated_at: Generated<Date>;
}

export interface NotificationsTables {
  notifications: NotificationsTable;
  notification_preferences: NotificationPreferencesTable;
  notification_defaults: NotificationDefaultsTable;
}
