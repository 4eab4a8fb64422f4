import type { RateLimitDecision, RateLimitStore } from '../../src/platform/http/rate-limit/rate-limit-store.js';

/**
 * A rate-limit store on a test clock: windows are aligned to the minute and the hour, so a suite on the
 * real clock could cross a boundary mid-test. `clock.now` null passes the real time through. The last
 * decision per key is kept, so a suite can read a window the headers do not show.
 */
export function clockedStore(inner: RateLimitStore, start: number | null) {
  const clock = { now: start };
  const decisions = new Map<string, RateLimitDecision>();
  const store: RateLimitStore = {
    async consume(key, windows, nowMs) {
      const decision = await inner.consume(key, windows, clock.now ?? nowMs);
      decisions.set(key, decision);
      return decision;
    },
    close: () => inner.close(),
  };
  return { store, clock, decisions };
}
