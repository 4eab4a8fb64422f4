import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import type { AlertInput } from './alert-raiser.js';

/**
 * A condition evaluated periodically, off the request path, that returns the alerts whose condition
 * holds now. The monitor writes them with the usual dedup (one unresolved alert per type, enterprise
 * and cause), so a check may return the same alert every round: it is level-triggered and idempotent.
 * A check that throws is logged and skipped for that round; the other checks still run.
 */
export type PeriodicCheck = (db: Kysely<DB>) => Promise<AlertInput[]>;

/**
 * What the platform reports so that system alerts (D9.5) can be raised. Calls are cheap and synchronous:
 * counting happens in memory and alerts are written off the request path.
 */
export interface Monitor {
  /** Every finished request, for the performance percentile. */
  recordResponse(durationMs: number): void;
  /**
   * A refused sign-in or a refused token, for one account (when known: an e-mail at sign-in, a user id
   * for a token of a known user) and from one address. `signIn`: a refused password sign-in (counted by
   * the metrics apart from refused tokens).
   */
  authFailure(input: { account: string | null; enterpriseId: string | null; ip: string; signIn?: boolean }): void;
  /** An unexpected error that answered 500. */
  unexpectedError(error: unknown, request: FastifyRequest): void;
  /** An on-commit hook that threw: its change has committed, the side effect did not happen. */
  commitHookFailed(error: unknown): void;
  /** A database failure; `unreachable` when the request answered 503. */
  databaseError(error: unknown, unreachable: boolean): void;
  /**
   * The plug-in point for alert conditions that live in domain data. A module adds its check from a job
   * (AppModule.jobs), so that it runs only where the app runs jobs, and the job's stop removes it; the
   * mitigation-actions module adds the `enterprise_health` check (D9.5: 5 or more overdue actions of
   * priority high or critical in one enterprise) this way. Checks run every 10 seconds (D10.5: within 30 s).
   *
   * A check looks across enterprises (it is platform work, not a tenant's request) and returns one alert
   * per enterprise whose condition holds, with a stable `cause`, for instance:
   *
   *   jobs: (platform) => [{
   *     name: 'actions.enterprise_health',
   *     start: () => {
   *       const remove = platform.monitor.addPeriodicCheck(async (db) =>
   *         (await enterprisesWithOverdueActions(db, { priorities: ['high', 'critical'], atLeast: 5 })).map((row) => ({
   *           type: 'enterprise_health', severity: 'warning', enterpriseId: row.enterprise_id,
   *           cause: 'overdue_high_priority_actions', title: 'Overdue high-priority mitigation actions',
   *           message: `${row.overdue} overdue actions of priority high or critical`,
   *         })));
   *       return async () => remove();
   *     },
   *   }]
   *
   * Once resolved by a super admin, the alert is raised again on the next round if the condition still holds.
   * Returns the function that removes the check.
   */
  addPeriodicCheck(check: PeriodicCheck): () => void;
  /** Stops timers and flushes what is pending (shutdown). */
  close(): Promise<void>;
}
