import { describe, expect, it } from 'vitest';
import { ResponseTimeWindow } from './response-times.js';

const T0 = 1_700_000_000_000;

describe('response time window (D9.5 performance)', () => {
  it('says nothing below the minimum number of samples', () => {
    const window = new ResponseTimeWindow(300_000, 20);
    for (let i = 0; i < 19; i += 1) window.record(5000, T0);
    expect(window.p95(T0)).toBeNull();
  });

  it('gives the nearest-rank 95th percentile of the window', () => {
    const window = new ResponseTimeWindow(300_000, 20);
    for (let i = 1; i <= 100; i += 1) window.record(i * 10, T0 + i);
    expect(window.p95(T0 + 100)).toBe(950);
  });

  it('drops samples older than the window', () => {
    const window = new ResponseTimeWindow(300_000, 1);
    window.record(5000, T0);
    window.record(10, T0 + 200_000);
    expect(window.p95(T0 + 300_001)).toBe(10);
    expect(window.p95(T0 + 600_000)).toBeNull();
  });

  it('keeps only the most recent samples beyond its bound', () => {
    const window = new ResponseTimeWindow(300_000, 1, 10);
    for (let i = 0; i < 10; i += 1) window.record(5000, T0);
    for (let i = 0; i < 10; i += 1) window.record(1, T0);
    expect(window.p95(T0)).toBe(1);
  });

  it('wraps around its bound: the newest samples and the window still decide', () => {
    // 25 samples through a ring of 10, slowest first: only the newest ten (10 ms down to 1 ms) are kept,
    // and the last five (5..1 ms) are five minutes younger than the others.
    const window = new ResponseTimeWindow(300_000, 5, 10);
    for (let ms = 25; ms >= 1; ms -= 1) window.record(ms, T0 + (ms <= 5 ? 300_000 : 0));
    expect(window.p95(T0 + 299_999)).toBe(10);
    expect(window.p95(T0 + 300_001)).toBe(5);
  });
});
