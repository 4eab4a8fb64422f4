import type { NotificationKind } from '../../platform/db/tables/notifications.js';

/** What a notification tells of, as its row names it. */
export interface NotificationSubjectIds {
  kind: NotificationKind;
  bra_id: string | null;
  mitigation_action_id: string | null;
  sub_control_id: string | null;
  risk_acceptance_id: string | null;
}

/**
 * Where the console opens what a notification tells of (web/src/app/routes.tsx): the one rule, answered as
 * the notification's `link` (the centre follows it) and written into its mails. A risk acceptance opens on
 * its BRA's "Risk acceptances" tab, an action in the list of its BRA's actions with its row marked, a
 * sub-control on its page, a BRA on its page (a comment on its Review tab).
 */
export function consolePath(n: NotificationSubjectIds): string {
  if (n.risk_acceptance_id !== null) return n.bra_id === null ? '/risk-register?accepted=true' : `/bras/${n.bra_id}?tab=acceptances`;
  if (n.mitigation_action_id !== null) {
    const query = new URLSearchParams({ action: n.mitigation_action_id });
    if (n.bra_id !== null) query.set('bra_id', n.bra_id);
    return `/actions?${query.toString()}`;
  }
  if (n.sub_control_id !== null) return `/controls/sub-controls/${n.sub_control_id}`;
  if (n.bra_id !== null) return n.kind === 'bra_commented' ? `/bras/${n.bra_id}?tab=review` : `/bras/${n.bra_id}`;
  return '/';
}
