import type { FastifyBaseLogger } from 'fastify';
import type { Job } from './module.js';

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
): Job {
  return {
    name,
    start() {
      let running: Promise<void> | null = null;
      const timer = setInterval(() => {
        if (running !== null) return;
        running = round()
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
