import { operationOf } from '../http/operation.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { claimJobPeriod } from '../scheduling/job-runs.js';
import { createAlertQueue } from './alert-queue.js';
import { raiseAlert, type AlertInput } from './alert-raiser.js';
import { AuthFailureTracker } from './auth-failure-tracker.js';
import type { Monitor, PeriodicCheck } from './monitor.js';
import { ResponseTimeWindow } from './response-times.js';

export type { PeriodicCheck } from './monitor.js';

const FIVE_MINUTES = 5 * 60_000;
const P95_LIMIT_MS = 1000;
/** Fewer responses than this in 5 minutes say nothing about the service's speed. */
const MIN_SAMPLES_FOR_P95 = 20;
/** D10.5: alerts are raised within 30 s of their condition; the periodic checks run well inside that. */
const CHECK_INTERVAL_MS = 10_000;

export interface AlertMonitor extends Monitor {
  /** Runs the periodic checks and writes everything pending now (tests; the timer does it otherwise). */
  flush(): Promise<void>;
}

/**
 * The monitor behind D9.5. Counting happens in memory on the request path; alerts are written from a
 * queue, so that no request waits for an alert and a database outage does not lose the alert about it.
 *
 * Conditions met on the request path (authentication, system, database) are queued at once; those that
 * are about a window or about stored data (performance, and the domain checks registered with
 * addPeriodicCheck, such as enterprise_health) are evaluated every CHECK_INTERVAL_MS.
 */
export function createMonitor(
  db: Kysely<DB>,
  log: Pick<FastifyBaseLogger, 'error' | 'warn'>,
  options: { intervalMs?: number } = {},
): AlertMonitor {
  const authFailures = new AuthFailureTracker();
  const responses = new ResponseTimeWindow(FIVE_MINUTES, MIN_SAMPLES_FOR_P95);
  const checks: PeriodicCheck[] = [];
  const queue = createAlertQueue((alert) => raiseAlert(db, alert), log);
  let round: Promise<void> | null = null;

  const intervalMs = options.intervalMs ?? CHECK_INTERVAL_MS;

  /**
   * `shared`: the timer's rounds. This process's own windows (auth failures, response times) are checked
   * on every instance; the checks of stored data (enterprise health and its scores) once per period across
   * the instances on the database (scheduling/job-runs.ts). flush() runs them here and now.
   */
  async function runRound(shared: boolean): Promise<void> {
    queue.newRound();
    const now = Date.now();
    authFailures.sweep(now);
    const p95 = responses.p95(now);
    if (p95 !== null && p95 > P95_LIMIT_MS) queue.enqueue(performanceAlert(p95));
    let mine = checks.length > 0;
    if (mine && shared) {
      try {
        mine = await claimJobPeriod(db, 'monitor.periodic_checks', intervalMs);
      } catch (error) {
        log.warn({ err: error }, 'periodic alert checks: could not claim the period');
        mine = false;
      }
    }
    for (const check of mine ? checks : []) {
      let alerts: AlertInput[];
      try {
        alerts = await check(db);
      } catch (error) {
        log.warn({ err: error }, 'periodic alert check failed');
        continue;
      }
      for (const alert of alerts) queue.enqueue(alert);
    }
    await queue.drain();
  }

  /** One round at a time: a slow round (database trouble) is not overlapped by the next tick. */
  function periodic(shared: boolean): Promise<void> {
    round ??= runRound(shared).finally(() => {
      round = null;
    });
    return round;
  }

  const timer = setInterval(() => void periodic(true), intervalMs);
  timer.unref();

  return {
    recordResponse(durationMs) {
      responses.record(durationMs, Date.now());
    },
    authFailure(failure) {
      for (const alert of authFailures.record(failure, Date.now())) queue.enqueue(alert);
    },
    unexpectedError(error, request) {
      const name = errorKind(error);
      const operation = operationOf(request) ?? `${request.method} ${request.routeOptions.url ?? request.url.split('?')[0]}`;
      // A 500 is a defect of the platform, whichever tenant met it: one platform-wide alert per route and
      // error class. The message names the first request, whose log line carries the cause.
      queue.enqueue({
        type: 'system',
        severity: 'critical',
        title: 'Unexpected server error',
        message: `${name} in ${operation} (first seen in request ${request.id})`,
        enterpriseId: null,
        cause: `${operation}:${name}`,
      });
    },
    commitHookFailed(error) {
      const name = errorKind(error);
      log.error({ err: error }, 'an on-commit hook failed after its transaction committed');
      queue.enqueue({
        type: 'system',
        severity: 'error',
        title: 'A side effect after commit failed',
        message: `${name} in an on-commit hook: a committed change's follow-up (cache drop, alert) did not happen`,
        enterpriseId: null,
        cause: `on_commit:${name}`,
      });
    },
    databaseError(error, unreachable) {
      const code = (error as { code?: unknown }).code;
      const sqlState = typeof code === 'string' ? code : 'unknown';
      queue.enqueue({
        type: 'database',
        severity: unreachable ? 'critical' : 'error',
        title: unreachable ? 'Database unreachable' : 'Database error',
        message: unreachable ? 'Requests answered 503: the database could not be reached' : `Database error ${sqlState}`,
        enterpriseId: null,
        cause: unreachable ? 'unreachable' : `error:${sqlState}`,
      });
    },
    addPeriodicCheck(check) {
      checks.push(check);
      return () => {
        const at = checks.indexOf(check);
        if (at !== -1) checks.splice(at, 1);
      };
    },
    async flush() {
      // A round already under way may have begun before the caller's events: run a complete one after it.
      if (round !== null) await round;
      await periodic(false);
    },
    async close() {
      clearInterval(timer);
      if (round !== null) await round.catch(() => undefined);
      await queue.drain().catch(() => undefined);
    },
  };
}

function performanceAlert(p95: number): AlertInput {
  return {
    type: 'performance',
    severity: 'warning',
    title: 'Slow responses',
    message: `The 95th percentile of response time over the last 5 minutes is ${Math.round(p95)} ms (limit ${P95_LIMIT_MS} ms)`,
    enterpriseId: null,
    cause: 'p95_response_time',
  };
}

/** What kind of failure, without its text (which may carry SQL or personal data): a SQLSTATE or the class name. */
function errorKind(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return `SQLSTATE ${code}`;
  return error instanceof Error ? error.name : typeof error;
}
