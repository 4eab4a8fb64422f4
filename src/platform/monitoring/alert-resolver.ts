import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import type { AlertType } from '../db/tables/monitoring.js';
import { causeKey } from './alert-raiser.js';

/**
 * Resolves the unresolved alert of a type, enterprise and cause when its condition has cleared by itself
 * (an enterprise's health recovered): resolved_by stays null, as no one resolved it; the resolution says why.
 * Returns whether there was one.
 */
export async function resolveClearedAlert(
  db: Kysely<DB>,
  alert: { type: AlertType; enterpriseId: string | null; cause: string; resolution: string },
): Promise<boolean> {
  const resolved = await db
    .updateTable('system_alerts')
    .set({ status: 'resolved', resolved_at: sql<Date>`now()`, resolution: alert.resolution, updated_at: sql<Date>`now()` })
    .where('type', '=', alert.type)
    .where((eb) => (alert.enterpriseId === null ? eb('enterprise_id', 'is', null) : eb('enterprise_id', '=', alert.enterpriseId)))
    .where('cause_key', '=', causeKey(alert.cause))
    .where('status', '<>', 'resolved')
    .returning('id')
    .executeTakeFirst();
  return resolved !== undefined;
}
