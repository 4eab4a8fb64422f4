import { isDatabaseUnavailable } from '../db/constraint-errors.js';
import type { AlertInput } from './alert-raiser.js';

/** Pending alerts beyond this (a long database outage under a spray of causes) are dropped, oldest first. */
const MAX_PENDING = 10_000;
/** An alert the database keeps refusing while it answers (bad data, not an outage) is dropped after this many tries. */
export const MAX_WRITE_ATTEMPTS = 3;

export interface AlertQueue {
  /** Queues an alert for writing, unless the same alert (type, enterprise, cause, severity) was already queued this round. */
  enqueue(alert: AlertInput): void;
  /** Writes everything pending; resolves when done. A failed write keeps the rest for the next drain. */
  drain(): Promise<void>;
  /** Starts a new round: alerts seen in the previous one may be written again (a resolved alert re-raised). */
  newRound(): void;
}

const keyOf = (alert: AlertInput) => `${alert.type}\n${alert.enterpriseId ?? ''}\n${alert.cause}\n${alert.severity}`;

/**
 * The write side of the monitor. A condition that keeps holding (a brute-force run, a storm of 500s)
 * reports on every request; the round memo turns that into at most one write per alert and round, and
 * the database's partial unique index does the rest of the dedup (across instances too). Writes are
 * serialised, so a database outage does not stack up concurrent retries, and nothing is lost while it
 * lasts: the alert about the outage is written once the database answers again.
 */
export function createAlertQueue(
  write: (alert: AlertInput) => Promise<unknown>,
  log: { warn(obj: object, message: string): void; error?(obj: object, message: string): void },
): AlertQueue {
  let pending = new Map<string, AlertInput>();
  const seenThisRound = new Set<string>();
  /** Failed writes per alert key, while the database answered (an outage does not count). */
  const failures = new Map<string, number>();
  let writing: Promise<void> = Promise.resolve();

  function keep(alert: AlertInput): void {
    if (!pending.has(keyOf(alert))) pending.set(keyOf(alert), alert);
  }

  function drain(): Promise<void> {
    writing = writing.then(async () => {
      const batch = [...pending.values()];
      pending = new Map();
      for (const [index, alert] of batch.entries()) {
        const key = keyOf(alert);
        try {
          await write(alert);
          failures.delete(key);
        } catch (error) {
          if (isDatabaseUnavailable(error)) {
            // The database is the very thing that is down: keep this one and the rest for later.
            for (const unwritten of batch.slice(index)) keep(unwritten);
            log.warn({ err: error, alert: alert.type, pending: pending.size }, 'alert not written yet; will retry');
            return;
          }
          // The database answered and refused this alert: the others are still written. It is retried
          // a few times (a transient conflict), then dropped loudly rather than retried forever.
          const attempts = (failures.get(key) ?? 0) + 1;
          if (attempts >= MAX_WRITE_ATTEMPTS) {
            failures.delete(key);
            (log.error ?? log.warn).call(log, { err: error, alert: alert.type, attempts }, 'alert dropped: the database refuses it');
          } else {
            failures.set(key, attempts);
            keep(alert);
            log.warn({ err: error, alert: alert.type, attempts }, 'alert not written; will retry');
          }
        }
      }
    });
    return writing;
  }

  return {
    enqueue(alert) {
      const key = keyOf(alert);
      if (seenThisRound.has(key)) return;
      seenThisRound.add(key);
      pending.set(key, alert);
      if (pending.size > MAX_PENDING) {
        const oldest = pending.keys().next().value as string;
        pending.delete(oldest);
      }
      void drain();
    },
    drain,
    newRound() {
      seenThisRound.clear();
    },
  };
}
