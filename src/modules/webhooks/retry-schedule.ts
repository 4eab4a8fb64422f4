/**
 * When a failed delivery is tried again: exponential backoff from 30 s, doubling, capped at one hour, with
 * jitter (a random point in the upper half of the delay, so that endpoints failing together do not retry in
 * step), for 24 hours from the first attempt. Pure: the dispatcher passes its clock and random source.
 */
export const FIRST_RETRY_MS = 30_000;
export const MAX_RETRY_MS = 3_600_000;
export const RETRY_WINDOW_MS = 24 * 3_600_000;

/** The wait after the `attempt`-th failed attempt (1 = the first), `random` in [0, 1). */
export function retryDelayMs(attempt: number, random: number): number {
  const ceiling = Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempt - 1), MAX_RETRY_MS);
  return Math.round(ceiling / 2 + (ceiling / 2) * random);
}

/** Whether a delivery first tried at `firstAttempt` has used up its 24 hours at `now`. */
export function retryWindowOver(firstAttempt: Date, now: Date): boolean {
  return now.getTime() - firstAttempt.getTime() >= RETRY_WINDOW_MS;
}
