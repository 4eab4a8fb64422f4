import { auditFrom } from '../../platform/audit/audit-events.js';
import { writeAudit } from '../../platform/audit/audit-writer.js';
import type { Caller, Principal } from '../../platform/auth/principal.js';
import type { Executor } from '../../platform/db/schema.js';
import type { AlertStatus } from '../../platform/db/tables/monitoring.js';
import { inTransaction } from '../../platform/db/transaction.js';
import { requireCurrentVersion, servedVersion } from '../../platform/http/conditional/preconditions.js';
import { invalidState, notFound, validationError } from '../../platform/http/errors.js';
import { loadPage, pageRequest } from '../../platform/http/pagination.js';
import { requireAlertManager } from './alerts.policy.js';
import { presentAcknowledgement, presentAlert, presentResolution } from './alerts.presenter.js';
import { markAcknowledged, markResolved } from '../../platform/monitoring/alert-status.js';
import { countAlerts, listAlertRows, lockAlert } from './alerts.repository.js';
import type { ListAlertsQuery, UpdateAlertBody } from './alerts.schemas.js';

type AlertChange = { status: 'acknowledged'; notes: string | null } | { status: 'resolved'; resolution: string | null };

/** D9.5: acknowledge only from open; resolve from open or acknowledged. */
const ALLOWED_FROM: Record<AlertChange['status'], readonly AlertStatus[]> = {
  acknowledged: ['open'],
  resolved: ['open', 'acknowledged'],
};

/** Each status takes its own text: notes on acknowledgement, a resolution on resolving (422 otherwise). */
export function alertChangeOf(body: UpdateAlertBody): AlertChange {
  if (body.status === 'acknowledged') {
    if (body.resolution !== undefined) {
      throw validationError([{ field: 'resolution', message: 'is allowed only with status resolved' }]);
    }
    return { status: 'acknowledged', notes: body.notes ?? null };
  }
  if (body.notes !== undefined) {
    throw validationError([{ field: 'notes', message: 'is allowed only with status acknowledged' }]);
  }
  return { status: 'resolved', resolution: body.resolution ?? null };
}

/** The view of the changed row, reporting its new version for the answer's ETag; null when the UPDATE found none. */
const present = <R extends { row_version: number }, V>(caller: Caller, row: R | undefined, view: (row: R) => V): V | null => {
  if (row === undefined) return null;
  servedVersion(caller, row.row_version);
  return view(row);
};

export interface AlertsServiceDeps {
  /** The database, or the caller's open transaction to join. */
  db: Executor;
}

/** System alerts (4.7, D9.5): listed, acknowledged and resolved by super admins only. */
export function createAlertsService({ db }: AlertsServiceDeps) {
  return {
    async list(principal: Principal, query: ListAlertsQuery) {
      requireAlertManager(principal);
      const filter = { status: query.status, severity: query.severity };
      return loadPage(
        pageRequest(query),
        () => countAlerts(db, filter),
        async (limit, offset) => (await listAlertRows(db, filter, limit, offset)).map(presentAlert),
      );
    },

    /**
     * Acknowledges or resolves an alert, with its audit entry in the platform trail, in one transaction.
     * The row is locked before the state check, so of two concurrent changes only one can succeed; the
     * UPDATE repeats the state condition as a second wall.
     */
    async changeStatus(caller: Caller, alertId: string, body: UpdateAlertBody) {
      const change = alertChangeOf(body);
      requireAlertManager(caller);
      return inTransaction(db, async ({ trx }) => {
        const current = await lockAlert(trx, alertId);
        if (current === undefined) throw notFound('Alert');
        requireCurrentVersion(caller, current.row_version);
        if (!ALLOWED_FROM[change.status].includes(current.status)) {
          throw invalidState(`An alert that is ${current.status} cannot be ${change.status}`);
        }
        const updated =
          change.status === 'acknowledged'
            ? present(caller, await markAcknowledged(trx, alertId, caller.userId, change.notes), presentAcknowledgement)
            : present(caller, await markResolved(trx, alertId, caller.userId, change.resolution), presentResolution);
        if (updated === null) throw invalidState(`The alert is no longer ${current.status}`);
        const text = change.status === 'acknowledged' ? { notes: change.notes } : { resolution: change.resolution };
        await writeAudit(trx, {
          enterpriseId: null,
          ...auditFrom(caller),
          action: 'update',
          entityType: 'system_alert',
          entityId: alertId,
          details: {
            alert_type: current.type,
            alert_enterprise_id: current.enterprise_id,
            from: current.status,
            to: change.status,
            ...text,
          },
        });
        return updated;
      });
    },
  };
}

export type AlertsService = ReturnType<typeof createAlertsService>;
