import { percentile } from './sliding-counter.js';

/**
 * Response times of the last `windowMs`, for the `performance` alert (D9.5: p95 over 5 minutes above
 * 1 s). Bounded: beyond `maxSamples` in the window, the most recent are kept. Recording is on every
 * request's path, so it is O(1): a ring that overwrites its oldest sample once full (shifting an array
 * of 50,000 on each request cost more than the request's own queries).
 */
export class ResponseTimeWindow {
  private readonly at: Float64Array;
  private readonly ms: Float64Array;
  /** Where the next sample goes; with `size`, the ring's oldest sample is at (next - size). */
  private next = 0;
  private size = 0;

  constructor(
    private readonly windowMs: number,
    /** Below this many samples the percentile says nothing (one slow request on an idle service). */
    private readonly minSamples: number,
    maxSamples = 50_000,
  ) {
    this.at = new Float64Array(maxSamples);
    this.ms = new Float64Array(maxSamples);
  }

  record(ms: number, now: number): void {
    this.at[this.next] = now;
    this.ms[this.next] = ms;
    this.next = (this.next + 1) % this.at.length;
    if (this.size < this.at.length) this.size += 1;
  }

  /** The 95th percentile of the window, or null while there are too few samples to judge. */
  p95(now: number): number | null {
    const since = now - this.windowMs;
    const capacity = this.at.length;
    const inWindow: number[] = [];
    for (let i = 0; i < this.size; i += 1) {
      const slot = (this.next - this.size + i + capacity) % capacity;
      if ((this.at[slot] as number) > since) inWindow.push(this.ms[slot] as number);
    }
    if (inWindow.length < this.minSamples) return null;
    return percentile(inWindow, 95);
  }
}
