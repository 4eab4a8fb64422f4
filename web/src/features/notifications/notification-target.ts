import type { Notification } from './api';

/**
 * Where the console opens a notification: its subject's screen. A BRA opens on its page (a comment on its
 * Review tab), an action in the list of its BRA's actions with its row marked, a sub-control on its page, a
 * risk acceptance on its BRA's "Risk acceptances" tab.
 */
export function notificationTarget(notification: Pick<Notification, 'kind' | 'subject' | 'bra_id'>): string {
  const { subject } = notification;
  switch (subject.type) {
    case 'bra':
      return notification.kind === 'bra_commented' ? `/bras/${subject.id}?tab=review` : `/bras/${subject.id}`;
    case 'mitigation_action': {
      const query = new URLSearchParams({ action: subject.id });
      if (notification.bra_id !== null) query.set('bra_id', notification.bra_id);
      return `/actions?${query.toString()}`;
    }
    case 'sub_control':
      return `/controls/sub-controls/${subject.id}`;
    case 'risk_acceptance':
      return notification.bra_id === null ? '/risk-register?accepted=true' : `/bras/${notification.bra_id}?tab=acceptances`;
  }
}
