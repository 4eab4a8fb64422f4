import { describe, expect, it } from 'vitest';
import { decide, secondsUntilReset, windowIndex, type WindowSpec } from './rate-limit-store.js';

const WINDOWS: WindowSpec[] = [
  { windowSeconds: 60, limit: 100 },
  { windowSeconds: 3600, limit: 1000 },
];
/** 2026-01-01T10:00:20Z: 40 s left in the minute, 3,580 s left in the hour. */
const NOW = Date.UTC(2026, 0, 1, 10, 0, 20);

describe('rate-limit windows (D8)', () => {
  it('aligns windows to the epoch', () => {
    expect(windowIndex(NOW, 60)).toBe(Math.floor(NOW / 60_000));
    expect(windowIndex(NOW + 39_999, 60)).toBe(windowIndex(NOW, 60));
    expect(windowIndex(NOW + 40_000, 60)).toBe(windowIndex(NOW, 60) + 1);
  });

  it('reports whole seconds until the window resets, between 1 and the window length (D8)', () => {
    expect(secondsUntilReset(NOW, 60)).toBe(40);
    expect(secondsUntilReset(NOW, 3600)).toBe(3580);
    // 0.5 s left rounds up to 1, never to 0.
    expect(secondsUntilReset(NOW + 39_500, 60)).toBe(1);
    // At the very start of a window the whole window is left.
    expect(secondsUntilReset(Date.UTC(2026, 0, 1, 10, 1, 0), 60)).toBe(60);
    expect(secondsUntilReset(NOW + 100, 60)).toBe(40);
    for (let ms = 0; ms < 60_000; ms += 777) {
      const seconds = secondsUntilReset(ms, 60);
      expect(Number.isInteger(seconds)).toBe(true);
      expect(seconds).toBeGreaterThanOrEqual(1);
      expect(seconds).toBeLessThanOrEqual(60);
    }
  });

  it('allows a request while every window is under its limit and counts it in remaining (D8)', () => {
    expect(decide(WINDOWS, [0, 0], NOW)).toEqual({
      allowed: true,
      windows: [
        { limit: 100, remaining: 99, resetSeconds: 40 },
        { limit: 1000, remaining: 999, resetSeconds: 3580 },
      ],
    });
    expect(decide(WINDOWS, [99, 500], NOW)).toMatchObject({ allowed: true, windows: [{ remaining: 0 }, { remaining: 499 }] });
  });

  it('refuses the request over the minute limit and does not count it (D8)', () => {
    expect(decide(WINDOWS, [100, 500], NOW)).toEqual({
      allowed: false,
      windows: [
        { limit: 100, remaining: 0, resetSeconds: 40 },
        // The hour is not charged for a refused request.
        { limit: 1000, remaining: 500, resetSeconds: 3580 },
      ],
    });
  });

  it('refuses the request over the hour limit even with minute budget left (D8: both windows apply)', () => {
    expect(decide(WINDOWS, [3, 1000], NOW)).toMatchObject({
      allowed: false,
      windows: [{ remaining: 97 }, { remaining: 0 }],
    });
  });

  it('treats missing counts as zero', () => {
    expect(decide(WINDOWS, [], NOW).windows.map((w) => w.remaining)).toEqual([99, 999]);
  });
});
