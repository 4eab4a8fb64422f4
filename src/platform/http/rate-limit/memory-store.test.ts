import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryRateLimitStore } from './memory-store.js';
import type { RateLimitStore, WindowSpec } from './rate-limit-store.js';

const WINDOWS: WindowSpec[] = [
  { windowSeconds: 60, limit: 3 },
  { windowSeconds: 3600, limit: 5 },
];
const MINUTE_START = Date.UTC(2026, 0, 1, 10, 0, 0);

describe('memory rate-limit store (D8)', () => {
  let store: RateLimitStore;
  afterEach(() => store.close());

  async function consumeTimes(key: string, times: number, nowMs: number) {
    const decisions = [];
    for (let i = 0; i < times; i += 1) decisions.push(await store.consume(key, WINDOWS, nowMs));
    return decisions;
  }

  it('counts per key, refuses past the minute limit, and does not count refused requests (D8)', async () => {
    store = createMemoryRateLimitStore();
    const now = MINUTE_START + 10_000;
    const decisions = await consumeTimes('user:a', 5, now);
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false, false]);
    expect(decisions.map((d) => d.windows[0]?.remaining)).toEqual([2, 1, 0, 0, 0]);
    // Two refusals did not touch the hour: 3 counted, 2 left.
    expect(decisions[4]?.windows[1]?.remaining).toBe(2);
    expect(decisions[4]?.windows[0]?.resetSeconds).toBe(50);
  });

  it('keeps keys apart: a second user is unaffected (D8)', async () => {
    store = createMemoryRateLimitStore();
    const now = MINUTE_START + 1_000;
    await consumeTimes('user:a', 4, now);
    const other = await store.consume('user:b', WINDOWS, now);
    expect(other.allowed).toBe(true);
    expect(other.windows[0]?.remaining).toBe(2);
  });

  it('starts a new minute window at the boundary while the hour keeps counting (D8)', async () => {
    store = createMemoryRateLimitStore();
    await consumeTimes('user:a', 3, MINUTE_START + 59_999);
    expect((await store.consume('user:a', WINDOWS, MINUTE_START + 59_999)).allowed).toBe(false);
    const next = await store.consume('user:a', WINDOWS, MINUTE_START + 60_000);
    expect(next.allowed).toBe(true);
    expect(next.windows.map((w) => w.remaining)).toEqual([2, 1]);
    expect(next.windows[0]?.resetSeconds).toBe(60);
    // The hour (limit 5) is now the binding window.
    await store.consume('user:a', WINDOWS, MINUTE_START + 60_001);
    const overHour = await store.consume('user:a', WINDOWS, MINUTE_START + 60_002);
    expect(overHour.allowed).toBe(false);
    expect(overHour.windows.map((w) => w.remaining)).toEqual([1, 0]);
    expect(overHour.windows[1]?.resetSeconds).toBe(3540);
  });
});
