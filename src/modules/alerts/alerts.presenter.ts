import type { AlertStatus } from '../../platform/db/tables/monitoring.js';
import type { markAcknowledged, markResolved } from '../../platform/monitoring/alert-status.js';
import type { listAlertRows } from './alerts.repository.js';

type AlertRow = Awaited<ReturnType<typeof listAlertRows>>[number];
type AcknowledgedRow = NonNullable<Awaited<ReturnType<typeof markAcknowledged>>>;
type ResolvedRow = NonNullable<Awaited<ReturnType<typeof markResolved>>>;

const iso = (value: Date | null) => (value === null ? null : value.toISOString());

/** An alert as the API shows it (2.8): timestamps in UTC with a Z (D2.7). */
export function presentAlert(row: AlertRow) {
  return {
    ...row,
    created_at: row.created_at.toISOString(),
    acknowledged_at: iso(row.acknowledged_at),
    resolved_at: iso(row.resolved_at),
  };
}

/** The change a PATCH made (4.7): the status with the matching timestamp, user and text. */
export function presentAcknowledgement(row: AcknowledgedRow) {
  return {
    id: row.id,
    status: row.status as Extract<AlertStatus, 'acknowledged'>,
    acknowledged_at: (row.acknowledged_at as Date).toISOString(),
    acknowledged_by: row.acknowledged_by as string,
    notes: row.notes,
  };
}

export function presentResolution(row: ResolvedRow) {
  return {
    id: row.id,
    status: row.status as Extract<AlertStatus, 'resolved'>,
    resolved_at: (row.resolved_at as Date).toISOString(),
    resolved_by: row.resolved_by as string,
    resolution: row.resolution,
  };
}
