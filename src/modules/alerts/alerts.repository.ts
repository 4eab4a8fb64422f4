import { sql, type Transaction } from 'kysely';
import type { DB, Executor } from '../../platform/db/schema.js';
import type { AlertSeverity, AlertStatus } from '../../platform/db/tables/alerts.js';

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
  const row = await filtered(db, filter).select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  return Number(row.total);
}

export async function listAlertRows(db: Executor, filter: AlertFilter, limit: number, offset: number) {
  return filtered(db, filter)
    .select(VIEW_COLUMNS)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** Locks the alert's row until commit, so that concurrent changes see each other's outcome. */
export async function lockAlert(trx: Transaction<DB>, alertId: string) {
  return trx
    .selectFrom('system_alerts')
    .select(['id', 'type', 'cause', 'enterprise_id', 'status'])
    .where('id', '=', alertId)
    .forUpdate()
    .executeTakeFirst();
}

export async function markAcknowledged(trx: Transaction<DB>, alertId: string, by: string, notes: string | null) {
  return trx
    .updateTable('system_alerts')
    .set({ status: 'acknowledged', acknowledged_at: sql<Date>`now()`, acknowledged_by: by, notes, updated_at: sql<Date>`now()` })
    .where('id', '=', alertId)
    .where('status', '=', 'open')
    .returning(['id', 'status', 'acknowledged_at', 'acknowledged_by', 'notes'])
    .executeTakeFirst();
}

export async function markResolved(trx: Transaction<DB>, alertId: string, by: string, resolution: string | null) {
  return trx
    .updateTable('system_alerts')
    .set({ status: 'resolved', resolved_at: sql<Date>`now()`, resolved_by: by, resolution, updated_at: sql<Date>`now()` })
    .where('id', '=', alertId)
    .where('status', 'in', ['open', 'acknowledged'])
    .returning(['id', 'status', 'resolved_at', 'resolved_by', 'resolution'])
    .executeTakeFirst();
}
