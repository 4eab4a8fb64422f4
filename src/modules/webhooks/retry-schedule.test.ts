import { describe, expect, it } from 'vitest';
import { FIRST_RETRY_MS, MAX_RETRY_MS, retryDelayMs, retryWindowOver } from './retry-schedule.js';

describe('webhook retry schedule', () => {
  it('doubles from 30 s with jitter in the upper half of each delay', () => {
    expect(retryDelayMs(1, 0)).toBe(FIRST_RETRY_MS / 2);
    expect(retryDelayMs(1, 0.999999)).toBeCloseTo(FIRST_RETRY_MS, -1);
    expect(retryDelayMs(2, 0)).toBe(FIRST_RETRY_MS);
    expect(retryDelayMs(4, 0)).toBe(FIRST_RETRY_MS * 4);
    const a = retryDelayMs(3, 0.1);
    const b = retryDelayMs(3, 0.9);
    expect(a).toBeLessThan(b);
  });

  it('never waits more than an hour', () => {
    expect(retryDelayMs(30, 0.999999)).toBeLessThanOrEqual(MAX_RETRY_MS);
    expect(retryDelayMs(1000, 0)).toBe(MAX_RETRY_MS / 2);
  });

  it('keeps trying for 24 hours from the first attempt, then gives up', () => {
    const first = new Date('2026-01-01T00:00:00Z');
    expect(retryWindowOver(first, new Date('2026-01-01T23:59:59Z'))).toBe(false);
    expect(retryWindowOver(first, new Date('2026-01-02T00:00:00Z'))).toBe(true);
  });

  it('fits a couple of dozen attempts in the 24 hours', () => {
    let elapsed = 0;
    let attempts = 1;
    while (elapsed < 24 * 3_600_000) elapsed += retryDelayMs(attempts++, 0.5);
    expect(attempts).toBeGreaterThan(20);
    expect(attempts).toBeLessThan(40);
  });
});
