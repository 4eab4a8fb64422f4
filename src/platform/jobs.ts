import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from './db/schema.js';
import { claimJobPeriod } from './scheduling/job-runs.js';

/**
 * Background work of a module or of the platform (a schedule, a periodic check, a queue to drain).
 * Declaring it starts nothing: the app starts every module's jobs only when asked (AppDeps.jobs), and
 * stops them when it closes.
 */
export interface Job {
  /** `<module>.<what>`, as logs name it. */
  name: string;
  /** Starts the work; the function returned stops it, resolving once a round under way has ended. */
  start(): () => Promise<void>;
}

export interface IntervalJobOptions {
  /**
   * A scan that must run once per period however many instances share the database (overdue check, audit
   * checkpoints): each round first claims its period there (scheduling/job-runs.ts) and is skipped when
   * another instance has it. Jobs that share out queued work by claims of their own (SKIP LOCKED: mail,
   * webhook deliveries, the idempotency sweep) need none and run on every instance.
   */
  oncePerPeriod?: Kysely<DB>;
}

/**
 * A job that runs `round` every `everyMs`. Never two rounds at once (a tick that comes while a round is
 * under way is skipped); a failed round is logged and the next tick tries again; the timer does not keep
 * the process alive. Stopping clears the timer and waits for the round under way.
 */
export function intervalJob(
  name: string,
  everyMs: number,
  log: Pick<FastifyBaseLogger, 'error'>,
  round: () => Promise<void>,
  options: IntervalJobOptions = {},
): Job {
  const shared = options.oncePerPeriod;
  const run = shared === undefined ? round : async () => {
    if (await claimJobPeriod(shared, name, everyMs)) await round();
  };
  return {
    name,
    start() {
      let running: Promise<void> | null = null;
      const timer = setInterval(() => {
        if (running !== null) return;
        running = run()
          .catch((error: unknown) => log.error({ err: error, job: name }, 'a background job round failed'))
          .finally(() => {
            running = null;
          });
      }, everyMs);
      timer.unref();
      return async () => {
        clearInterval(timer);
        if (running !== null) await running;
      };
    },
  };
}

/** Starts every job; the function returned stops them all. */
export function startJobs(jobs: readonly Job[]): () => Promise<void> {
  const stops = jobs.map((job) => job.start());
  return async () => {
    await Promise.all(stops.map((stop) => stop()));
  };
}
