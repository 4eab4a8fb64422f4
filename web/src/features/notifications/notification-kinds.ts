import type { NotificationKind } from './api';

/** Each kind of notification as its preference row names it, in the order the rows stand (the review loop, then the reminders). */
export const NOTIFICATION_KINDS: { kind: NotificationKind; label: string }[] = [
  { kind: 'bra_submitted', label: 'A BRA awaits your review' },
  { kind: 'bra_returned', label: 'Your BRA is returned' },
  { kind: 'bra_approved', label: 'Your BRA is approved' },
  { kind: 'bra_cancelled', label: 'Your BRA is cancelled' },
  { kind: 'bra_commented', label: 'A comment on a BRA you work on' },
  { kind: 'action_assigned', label: 'An action is given to you' },
  { kind: 'action_due_soon', label: 'Your action falls due soon' },
  { kind: 'action_overdue', label: 'Your action is overdue' },
  { kind: 'control_test_due', label: 'A sub-control is due for its test' },
  { kind: 'acceptance_expiring', label: 'A risk acceptance expires soon' },
];
