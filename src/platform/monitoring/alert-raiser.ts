import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import type { AlertSeverity, AlertType } from '../db/tables/alerts.js';

export interface AlertInput {
  type: AlertType;
  severity: AlertSeverity;
  title: string;
  message: string;
  enterpriseId: string | null;
  /** What the alert is about; at most one unresolved alert per type, enterprise and cause (D9.5). */
  cause: string;
}

const SEVERITY_RANK: Record<AlertSeverity, number> = { info: 0, warning: 1, error: 2, critical: 3 };

/**
 * Raises an alert unless an unresolved one of the same type, enterprise and cause exists; a graver
 * severity raises the existing alert's severity instead (authentication: warning, then error from 50).
 * The partial unique index settles races between instances.
 */
export async function raiseAlert(db: Kysely<DB>, alert: AlertInput): Promise<'raised' | 'escalated' | 'exists'> {
  const inserted = await db
    .insertInto('system_alerts')
    .values({
      type: alert.type,
      severity: alert.severity,
      title: alert.title,
      message: alert.message,
      enterprise_id: alert.enterpriseId,
      cause: alert.cause,
    })
    .onConflict((oc) =>
      oc.columns(['type', 'enterprise_id', 'cause']).where(sql.ref('status'), '<>', 'resolved').doNothing(),
    )
    .returning('id')
    .executeTakeFirst();
  if (inserted !== undefined) return 'raised';
  const graver = Object.entries(SEVERITY_RANK)
    .filter(([, rank]) => rank < SEVERITY_RANK[alert.severity])
    .map(([severity]) => severity as AlertSeverity);
  if (graver.length === 0) return 'exists';
  const escalated = await db
    .updateTable('system_alerts')
    .set({ severity: alert.severity, message: alert.message, updated_at: new Date() })
    .where('type', '=', alert.type)
    .where((eb) => (alert.enterpriseId === null ? eb('enterprise_id', 'is', null) : eb('enterprise_id', '=', alert.enterpriseId)))
    .where('cause', '=', alert.cause)
    .where('status', '<>', 'resolved')
    .where('severity', 'in', graver)
    .returning('id')
    .executeTakeFirst();
  return escalated === undefined ? 'exists' : 'escalated';
}
