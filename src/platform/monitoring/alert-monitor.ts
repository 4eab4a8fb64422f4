import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { raiseAlert, type AlertInput } from './alert-raiser.js';
import type { Monitor } from './monitor.js';
import { SlidingCounter, percentile } from './sliding-counter.js';

const FIVE_MINUTES = 5 * 60_000;
const AUTH_THRESHOLD = 10;
const AUTH_ERROR_THRESHOLD = 50;
const P95_LIMIT_MS = 1000;
const MIN_SAMPLES_FOR_P95 = 20;
/** D10.5: alerts are raised within 30 s of their condition; the periodic checks run well inside that. */
const CHECK_INTERVAL_MS = 10_000;

/**
 * A condition evaluated periodically off the request path (the domain modules plug in theirs, such as
 * `enterprise_health` once mitigation actions exist). It returns the alerts whose condition holds.
 */
export type PeriodicCheck = (db: Kysely<DB>) => Promise<AlertInput[]>;

export interface AlertMonitor extends Monitor {
  addPeriodicCheck(check: PeriodicCheck): void;
  /** Runs the periodic checks and writes what is pending now (tests; the timer does it otherwise). */
  flush(): Promise<void>;
}

/**
 * Counts in memory on the request path and writes alerts from a queue, so that no request waits for an
 * alert and a database outage does not lose the alert about it: pending alerts are retried.
 */
export function createMonitor(
  db: Kysely<DB>,
  log: Pick<FastifyBaseLogger, 'error' | 'warn'>,
  options: { intervalMs?: number } = {},
): AlertMonitor {
  const authFailures = new SlidingCounter(FIVE_MINUTES);
  const responses: Array<{ at: number; ms: number }> = [];
  const checks: PeriodicCheck[] = [];
  let pending: AlertInput[] = [];
  let writing: Promise<void> = Promise.resolve();

  function enqueue(alert: AlertInput): void {
    if (pending.some((p) => p.type === alert.type && p.enterpriseId === alert.enterpriseId && p.cause === alert.cause && p.severity === alert.severity)) {
      return;
    }
    pending.push(alert);
    void drain();
  }

  function drain(): Promise<void> {
    writing = writing.then(async () => {
      const batch = pending;
      pending = [];
      for (const [i, alert] of batch.entries()) {
        try {
          await raiseAlert(db, alert);
        } catch (error) {
          // Keep it (and the rest) for the next round: the database may be the thing that is down.
          pending.unshift(...batch.slice(i));
          log.warn({ err: error, alert: alert.type }, 'alert not written yet; will retry');
          return;
        }
      }
    });
    return writing;
  }

  function authAlert(cause: string, count: number, enterpriseId: string | null): void {
    if (count !== AUTH_THRESHOLD && count !== AUTH_ERROR_THRESHOLD) return;
    const [kind, who] = cause.split(/:(.*)/s) as [string, string];
    enqueue({
      type: 'authentication',
      severity: count >= AUTH_ERROR_THRESHOLD ? 'error' : 'warning',
      title: kind === 'account' ? 'Repeated refused sign-ins for one account' : 'Repeated refused sign-ins from one address',
      message: `${count} or more refused sign-ins or tokens for ${kind} ${who} within 5 minutes`,
      enterpriseId,
      cause,
    });
  }

  async function periodic(): Promise<void> {
    const now = Date.now();
    authFailures.sweep(now);
    while (responses.length > 0 && (responses[0] as { at: number }).at <= now - FIVE_MINUTES) responses.shift();
    if (responses.length >= MIN_SAMPLES_FOR_P95) {
      const p95 = percentile(responses.map((r) => r.ms), 95);
      if (p95 > P95_LIMIT_MS) {
        enqueue({
          type: 'performance',
          severity: 'warning',
          title: 'Slow responses',
          message: `The 95th percentile of response time over the last 5 minutes is ${Math.round(p95)} ms (limit ${P95_LIMIT_MS} ms)`,
          enterpriseId: null,
          cause: 'p95_response_time',
        });
      }
    }
    for (const check of checks) {
      try {
        for (const alert of await check(db)) enqueue(alert);
      } catch (error) {
        log.warn({ err: error }, 'periodic alert check failed');
      }
    }
    await drain();
  }

  const timer = setInterval(() => void periodic(), options.intervalMs ?? CHECK_INTERVAL_MS);
  timer.unref();

  return {
    recordResponse(durationMs) {
      responses.push({ at: Date.now(), ms: durationMs });
      // Bounded: a burst beyond this many samples in 5 minutes keeps the most recent ones.
      if (responses.length > 50_000) responses.splice(0, responses.length - 50_000);
    },
    authFailure({ account, enterpriseId, ip }) {
      const now = Date.now();
      if (account !== null) authAlert(`account:${account}`, authFailures.hit(`account:${account}`, now), enterpriseId);
      authAlert(`address:${ip}`, authFailures.hit(`address:${ip}`, now), null);
    },
    unexpectedError(error, request) {
      const name = error instanceof Error ? error.name : 'Error';
      const operation = request.routeOptions.config?.operation ?? `${request.method} ${request.routeOptions.url ?? ''}`;
      enqueue({
        type: 'system',
        severity: 'critical',
        title: 'Unexpected server error',
        message: `${name} in ${operation} (request ${request.id})`,
        enterpriseId: request.principal?.enterpriseId ?? null,
        cause: `${operation}:${name}`,
      });
    },
    databaseError(error, unreachable) {
      const code = (error as { code?: string }).code ?? 'unknown';
      enqueue({
        type: 'database',
        severity: unreachable ? 'critical' : 'error',
        title: unreachable ? 'Database unreachable' : 'Database error',
        message: unreachable ? 'Requests answered 503: the database could not be reached' : `Database error ${code}`,
        enterpriseId: null,
        cause: unreachable ? 'unreachable' : `error:${code}`,
      });
    },
    addPeriodicCheck(check) {
      checks.push(check);
    },
    async flush() {
      await periodic();
    },
    async close() {
      clearInterval(timer);
      await drain().catch(() => undefined);
    },
  };
}
