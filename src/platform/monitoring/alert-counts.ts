import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/** Open alerts by type and severity (for the metrics): a scan of system_alerts_status_idx's open rows. */
export async function openAlertCounts(db: Kysely<DB>): Promise<{ type: string; severity: string; count: number }[]> {
  const rows = await db
    .selectFrom('system_alerts')
    .select(['type', 'severity', (eb) => eb.fn.countAll<number>().as('count')])
    .where('status', '=', 'open')
    .groupBy(['type', 'severity'])
    .execute();
  return rows.map((row) => ({ type: row.type, severity: row.severity, count: Number(row.count) }));
}
