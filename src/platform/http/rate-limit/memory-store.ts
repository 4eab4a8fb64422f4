import { decide, windowIndex, type RateLimitStore } from './rate-limit-store.js';

/** Counters in this process. Entries of past windows are swept once a minute. */
export function createMemoryRateLimitStore(): RateLimitStore {
  const counters = new Map<string, { count: number; expiresAt: number }>();
  const sweeper = setInterval(() => {
    const now = Date.now();
    for (const [key, entry] of counters) if (entry.expiresAt <= now) counters.delete(key);
  }, 60_000);
  sweeper.unref();

  return {
    async consume(key, windows, nowMs) {
      const keys = windows.map((spec) => `${key}:${spec.windowSeconds}:${windowIndex(nowMs, spec.windowSeconds)}`);
      const counts = keys.map((k) => counters.get(k)?.count ?? 0);
      const decision = decide(windows, counts, nowMs);
      if (decision.allowed) {
        windows.forEach((spec, i) => {
          const k = keys[i] as string;
          const expiresAt = (windowIndex(nowMs, spec.windowSeconds) + 1) * spec.windowSeconds * 1000;
          counters.set(k, { count: (counts[i] ?? 0) + 1, expiresAt });
        });
      }
      return decision;
    },
    async close() {
      clearInterval(sweeper);
      counters.clear();
    },
  };
}
