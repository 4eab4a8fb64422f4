import type { Caller } from '../../platform/auth/principal.js';
import type { Executor } from '../../platform/db/schema.js';
import { validationError } from '../../platform/errors/app-error.js';
import { loadPage, pageRequest } from '../../platform/http/pagination.js';
import { consolePath } from './notification-link.js';
import { requireNotificationReader } from './notifications.policy.js';
import { countNotifications, listNotifications, markRead, type NotificationRow } from './notifications.repository.js';
import type { ListNotificationsQuery, MarkReadBody, NotificationView } from './notifications.schemas.js';

/** The most specific thing a notification tells of: an acceptance, an action, a sub-control, else its BRA. */
function subjectOf(row: NotificationRow): NotificationView['subject'] {
  if (row.risk_acceptance_id !== null) return { type: 'risk_acceptance', id: row.risk_acceptance_id, name: row.bra_name ?? '' };
  if (row.mitigation_action_id !== null) return { type: 'mitigation_action', id: row.mitigation_action_id, name: row.action_text ?? '' };
  if (row.sub_control_id !== null) return { type: 'sub_control', id: row.sub_control_id, name: row.sub_control_name ?? '' };
  return { type: 'bra', id: row.bra_id as string, name: row.bra_name ?? '' };
}

function toNotificationView(row: NotificationRow): NotificationView {
  const { actor_name, action_text: _action, sub_control_name: _subControl, ...notification } = row;
  return { ...notification, subject: subjectOf(row), link: consolePath(row), actor_user: row.actor_id === null ? null : { id: row.actor_id, full_name: actor_name ?? '' } };
}

/** The notification centre (issue 49): a person's own notifications, listed and marked read. */
export function createNotificationsService({ db }: { db: Executor }) {
  return {
    async list(caller: Caller, query: ListNotificationsQuery) {
      requireNotificationReader(caller);
      const { enterpriseId, userId } = caller;
      const unreadOnly = query.unread_only === true;
      // The unread count is the page's total when only the unread are listed: one count, not two.
      const unreadCount = countNotifications(db, enterpriseId, userId, true);
      const [page, unread] = await Promise.all([
        loadPage(
          pageRequest(query),
          () => (unreadOnly ? unreadCount : countNotifications(db, enterpriseId, userId, false)),
          (limit, offset) => listNotifications(db, enterpriseId, userId, unreadOnly, { limit, offset }),
        ),
        unreadCount,
      ]);
      return { data: page.data.map(toNotificationView), pagination: page.pagination, unread_count: unread };
    },

    async markRead(caller: Caller, body: MarkReadBody) {
      requireNotificationReader(caller);
      if ((body.ids === undefined) === (body.all === undefined)) {
        throw validationError([{ field: 'ids', message: 'give either ids or all: true' }]);
      }
      const marked = await markRead(db, caller.enterpriseId, caller.userId, body.ids ?? 'all');
      return { marked, unread_count: await countNotifications(db, caller.enterpriseId, caller.userId, true) };
    },
  };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
