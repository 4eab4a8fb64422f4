import { constants } from 'node:os';
import { performance } from 'node:perf_hooks';

interface ShutdownLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

/** A shutdown that has not finished by then is cut short (exit code 1). */
const FORCE_AFTER_MS = 15_000;

/**
 * One Ctrl+C can arrive twice: the terminal signals the whole foreground group, and `npm start` also
 * forwards what it receives to the service. A repeat this soon is that echo, not a person pressing again.
 */
const SAME_SIGNAL_WITHIN_MS = 1_000;

/**
 * Graceful shutdown on SIGTERM and SIGINT: `close` finishes in-flight requests and releases what the service
 * holds, then the log says `stopped` with the time it took. A second signal while that runs (Ctrl+C again
 * during a slow shutdown, a second or more after the first) stops the process at once, with the usual 128 + signal exit code; an embedded
 * server it leaves running is adopted by the next start.
 */
export function onShutdownSignals(log: ShutdownLog, close: () => Promise<void>): void {
  let began: number | null = null;
  const stop = async (signal: NodeJS.Signals) => {
    if (began !== null) {
      if (performance.now() - began < SAME_SIGNAL_WITHIN_MS) return;
      log.warn({ signal }, `${signal} again: stopping at once, without waiting for the shutdown to finish`);
      process.exit(128 + constants.signals[signal]);
    }
    began = performance.now();
    log.info({ signal }, 'shutting down: finishing in-flight requests (send the signal again to stop at once)');
    setTimeout(() => process.exit(1), FORCE_AFTER_MS).unref();
    try {
      await close();
      const durationMs = Math.round(performance.now() - began);
      log.info({ durationMs }, `stopped in ${durationMs} ms`);
      process.exit(0);
    } catch (error) {
      log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}
