import type { AlertInput } from '../../platform/monitoring/alert-raiser.js';
import type { PeriodicCheck } from '../../platform/monitoring/monitor.js';
import { enterprisesWithOverdueUrgentActions } from './actions.repository.js';
import { utcToday } from './overdue.js';

/** D9.5: an enterprise with this many overdue actions of priority high or critical is in poor health. */
export const OVERDUE_URGENT_THRESHOLD = 5;
/** The alert's cause: with the type and the enterprise, what makes it one open alert per enterprise. */
export const OVERDUE_URGENT_CAUSE = 'overdue_high_priority_actions';

/**
 * The `enterprise_health` condition, as a periodic check for the monitor (level-triggered: it returns the
 * alert every round while the condition holds; the monitor's dedup keeps one unresolved alert per
 * enterprise). Overdue is D7.3's rule on today's UTC date; archived actions are set aside and not counted.
 */
export function enterpriseHealthCheck(now: () => Date = () => new Date()): PeriodicCheck {
  return async (db) => {
    const rows = await enterprisesWithOverdueUrgentActions(db, utcToday(now()), OVERDUE_URGENT_THRESHOLD);
    return rows.map(
      (row): AlertInput => ({
        type: 'enterprise_health',
        severity: 'warning',
        enterpriseId: row.enterprise_id,
        cause: OVERDUE_URGENT_CAUSE,
        title: 'Overdue high-priority mitigation actions',
        message: `${row.overdue} overdue mitigation actions of priority high or critical (threshold ${OVERDUE_URGENT_THRESHOLD})`,
      }),
    );
  };
}
