import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import type { AlertSeverity, AlertType } from '../db/tables/monitoring.js';

export interface AlertInput {
  type: AlertType;
  severity: AlertSeverity;
  title: string;
  message: string;
  enterpriseId: string | null;
  /** What the alert is about; at most one unresolved alert per type, enterprise and cause (D9.5). */
  cause: string;
}

/** What is stored of an alert's texts; the dedup key is a hash of the whole cause, so nothing is lost to it. */
const MAX_CAUSE_CHARS = 500;
const MAX_TEXT_CHARS = 2000;
const bounded = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
/** PostgreSQL refuses NUL in text; whatever an alert quotes must not make it unwritable. */
const storable = (text: string, max: number) => bounded(text.replaceAll('\u0000', '\uFFFD'), max);

/** The fixed-size key of a cause (SHA-256, hex), as the migration computed it for older rows. */
export const causeKey = (cause: string) => createHash('sha256').update(cause, 'utf8').digest('hex');

const SEVERITY_RANK: Record<AlertSeverity, number> = { info: 0, warning: 1, error: 2, critical: 3 };

/**
 * Raises an alert unless an unresolved one of the same type, enterprise and cause exists; a graver
 * severity raises the existing alert's severity instead (authentication: warning, then error from 50).
 * The partial unique index settles races between instances.
 */
export async function raiseAlert(db: Kysely<DB>, alert: AlertInput): Promise<'raised' | 'escalated' | 'exists'> {
  const key = causeKey(alert.cause);
  const message = storable(alert.message, MAX_TEXT_CHARS);
  const inserted = await db
    .insertInto('system_alerts')
    .values({
      type: alert.type,
      severity: alert.severity,
      title: storable(alert.title, MAX_TEXT_CHARS),
      message,
      enterprise_id: alert.enterpriseId,
      cause: storable(alert.cause, MAX_CAUSE_CHARS),
      cause_key: key,
    })
    .onConflict((oc) =>
      oc.columns(['type', 'enterprise_id', 'cause_key']).where(sql.ref('status'), '<>', 'resolved').doNothing(),
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
    .set({ severity: alert.severity, message, updated_at: new Date() })
    .where('type', '=', alert.type)
    .where((eb) => (alert.enterpriseId === null ? eb('enterprise_id', 'is', null) : eb('enterprise_id', '=', alert.enterpriseId)))
    .where('cause_key', '=', key)
    .where('status', '<>', 'resolved')
    .where('severity', 'in', graver)
    .returning('id')
    .executeTakeFirst();
  return escalated === undefined ? 'exists' : 'escalated';
}
