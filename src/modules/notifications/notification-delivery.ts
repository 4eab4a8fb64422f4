import {
  NOTIFICATION_KINDS,
  REVIEW_NOTIFICATION_KINDS,
  type NotificationDelivery,
  type NotificationKind,
} from '../../platform/db/tables/notifications.js';

/**
 * How a person hears of each kind of notification besides the console (issue 49): the person's own choice,
 * else the enterprise's default (a client admin's), else the built-in one: a mail at once for the review
 * loop (someone waits for an answer), the daily digest for reminders (they come in rounds).
 */
export const BUILT_IN_DELIVERY: Readonly<Record<NotificationKind, NotificationDelivery>> = Object.fromEntries(
  NOTIFICATION_KINDS.map((kind) => [kind, (REVIEW_NOTIFICATION_KINDS as readonly string[]).includes(kind) ? 'immediate' : 'digest']),
) as Record<NotificationKind, NotificationDelivery>;

/** Where a kind's effective delivery comes from. */
export type DeliverySource = 'user' | 'enterprise' | 'default';

/** One entry per kind, in NOTIFICATION_KINDS order: the first choice that exists wins. */
export function effectiveDeliveries(
  own: ReadonlyMap<NotificationKind, NotificationDelivery>,
  enterprise: ReadonlyMap<NotificationKind, NotificationDelivery>,
): { kind: NotificationKind; delivery: NotificationDelivery; source: DeliverySource }[] {
  return NOTIFICATION_KINDS.map((kind) => {
    const mine = own.get(kind);
    if (mine !== undefined) return { kind, delivery: mine, source: 'user' as const };
    const theirs = enterprise.get(kind);
    if (theirs !== undefined) return { kind, delivery: theirs, source: 'enterprise' as const };
    return { kind, delivery: BUILT_IN_DELIVERY[kind], source: 'default' as const };
  });
}

/** The outbox templates of notification mail (notification-mail.ts renders them when they are sent). */
export const NOTIFICATION_MAIL = 'notification';
export const DIGEST_MAIL = 'notification_digest';

/** What an outbox row of either template names: the person and the notifications it tells of. */
export interface NotificationMailData {
  enterprise_id: string;
  user_id: string;
  notification_ids: string[];
  /** A digest's: the moment of the round that took them. */
  day?: string;
}

/** How a mail names each kind (its footer, the digest's lines). */
export const KIND_LABELS: Readonly<Record<NotificationKind, string>> = {
  bra_submitted: 'BRAs submitted for your review',
  bra_returned: 'your BRAs returned to you',
  bra_approved: 'your BRAs approved',
  bra_cancelled: 'your BRAs cancelled',
  bra_commented: 'comments on BRAs',
  action_assigned: 'actions given to you',
  action_due_soon: 'actions due soon',
  action_overdue: 'overdue actions',
  control_test_due: 'control tests due',
  acceptance_expiring: 'risk acceptances expiring',
};
