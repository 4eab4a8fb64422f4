import { sql, type Transaction } from 'kysely';
import type { DB } from '../db/schema.js';

/**
 * A super admin's answer to an alert (D9.5), written here because the monitor owns `system_alerts`: the
 * alerts module decides (who, from which status) and calls these. Each repeats the state condition, a
 * second wall behind the caller's row lock.
 */

export async function markAcknowledged(trx: Transaction<DB>, alertId: string, by: string, notes: string | null) {
  return trx
    .updateTable('system_alerts')
    .set({ status: 'acknowledged', acknowledged_at: sql<Date>`now()`, acknowledged_by: by, notes, updated_at: sql<Date>`now()` })
    .where('id', '=', alertId)
    .where('status', '=', 'open')
    .returning(['id', 'status', 'acknowledged_at', 'acknowledged_by', 'notes', 'row_version'])
    .executeTakeFirst();
}

export async function markResolved(trx: Transaction<DB>, alertId: string, by: string, resolution: string | null) {
  return trx
    .updateTable('system_alerts')
    .set({ status: 'resolved', resolved_at: sql<Date>`now()`, resolved_by: by, resolution, updated_at: sql<Date>`now()` })
    .where('id', '=', alertId)
    .where('status', 'in', ['open', 'acknowledged'])
    .returning(['id', 'status', 'resolved_at', 'resolved_by', 'resolution', 'row_version'])
    .executeTakeFirst();
}
