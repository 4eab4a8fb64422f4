import { recordChange } from '../../platform/audit/record-change.js';
import type { Caller, Principal } from '../../platform/auth/principal.js';
import type { Executor } from '../../platform/db/schema.js';
import type { AlertStatus } from '../../platform/db/tables/monitoring.js';
import { inTransaction } from '../../platform/db/transaction.js';
import { lockForChange } from '../../platform/changes/versioned-change.js';
import type { ChangeTerms } from '../../platform/versions/change-terms.js';
import { versioned, versionState, type Versioned } from '../../platform/versions/resource-state.js';
import { invalidState, notFound, validationError } from '../../platform/errors/app-error.js';
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

/** The view of the changed row with its new state (the answer's ETag); null when the UPDATE found none. */
const present = <R extends { row_version: number }, V>(row: R | undefined, view: (row: R) => V): Versioned<V> | null =>
  row === undefined ? null : versioned(view(row), versionState(row.row_version));

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
    async changeStatus(caller: Caller, alertId: string, body: UpdateAlertBody, terms: ChangeTerms) {
      const change = alertChangeOf(body);
      requireAlertManager(caller);
      return inTransaction(db, async ({ trx }) => {
        const current = await lockForChange({ noun: 'Alert', lock: () => lockAlert(trx, alertId) }, terms);
        if (!ALLOWED_FROM[change.status].includes(current.status)) {
          throw invalidState(`An alert that is ${current.status} cannot be ${change.status}`);
        }
        const updated: Versioned<ReturnType<typeof presentAcknowledgement> | ReturnType<typeof presentResolution>> | null =
          change.status === 'acknowledged'
            ? present(await markAcknowledged(trx, alertId, caller.userId, change.notes), presentAcknowledgement)
            : present(await markResolved(trx, alertId, caller.userId, change.resolution), presentResolution);
        if (updated === null) throw invalidState(`The alert is no longer ${current.status}`);
        const text = change.status === 'acknowledged' ? { notes: change.notes } : { resolution: change.resolution };
        await recordChange(trx, caller, {
          enterpriseId: null,
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
