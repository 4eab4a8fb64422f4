import type { ActionStatus } from '../../platform/db/tables/actions.js';

/** Today's calendar date in UTC, 'YYYY-MM-DD': the day D7.3's overdue rule is measured against. */
export function utcToday(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/**
 * D7.3: an action is overdue when its due date is before today (UTC) and it is not completed. Due today is
 * not overdue. Dates are 'YYYY-MM-DD', whose text order is their calendar order. Pure: computed at every
 * read from the stored due date and status, so it can never be stale; the list filter `overdue_only`
 * states the same rule in SQL (actions.repository.ts).
 */
export function isOverdue(action: { due_date: string; status: ActionStatus }, today: string): boolean {
  return action.status !== 'completed' && action.due_date < today;
}
