import type { Transaction } from 'kysely';
import { countRows, newestFirst } from '../../platform/db/page-queries.js';
import type { DB, Executor } from '../../platform/db/schema.js';
import type { AlertSeverity, AlertStatus } from '../../platform/db/tables/monitoring.js';

/*
 * Reads of `system_alerts`, which the platform's monitor owns (tables/monitoring.ts): the status changes
 * a super admin makes are written through platform/monitoring/alert-status.ts.
 */

export interface AlertFilter {
  status?: AlertStatus | undefined;
  severity?: AlertSeverity | undefined;
}

/** What the API shows of an alert: everything but the internal `cause` and `updated_at`. */
const VIEW_COLUMNS = [
  'id',
  'type',
  'severity',
  'title',
  'message',
  'enterprise_id',
  'status',
  'created_at',
  'acknowledged_at',
  'acknowledged_by',
  'notes',
  'resolved_at',
  'resolved_by',
  'resolution',
] as const;

function filtered(db: Executor, filter: AlertFilter) {
  let query = db.selectFrom('system_alerts');
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  if (filter.severity !== undefined) query = query.where('severity', '=', filter.severity);
  return query;
}

export async function countAlerts(db: Executor, filter: AlertFilter): Promise<number> {
  return countRows(filtered(db, filter));
}

export async function listAlertRows(db: Executor, filter: AlertFilter, limit: number, offset: number) {
  return newestFirst(filtered(db, filter).select(VIEW_COLUMNS), limit, offset).execute();
}

/** Locks the alert's row until commit, so that concurrent changes see each other's outcome. */
export async function lockAlert(trx: Transaction<DB>, alertId: string) {
  return trx
    .selectFrom('system_alerts')
    .select(['id', 'type', 'cause', 'enterprise_id', 'status', 'row_version'])
    .where('id', '=', alertId)
    .forUpdate()
    .executeTakeFirst();
}
