import { percentile } from './sliding-counter.js';

/**
 * Response times of the last `windowMs`, for the `performance` alert (D9.5: p95 over 5 minutes above
 * 1 s). Bounded: beyond `maxSamples` in the window, the most recent are kept.
 */
export class ResponseTimeWindow {
  private samples: Array<{ at: number; ms: number }> = [];

  constructor(
    private readonly windowMs: number,
    /** Below this many samples the percentile says nothing (one slow request on an idle service). */
    private readonly minSamples: number,
    private readonly maxSamples = 50_000,
  ) {}

  record(ms: number, now: number): void {
    this.samples.push({ at: now, ms });
    if (this.samples.length > this.maxSamples) this.samples.splice(0, this.samples.length - this.maxSamples);
  }

  /** The 95th percentile of the window, or null while there are too few samples to judge. */
  p95(now: number): number | null {
    const since = now - this.windowMs;
    const firstInWindow = this.samples.findIndex((sample) => sample.at > since);
    this.samples = firstInWindow === -1 ? [] : this.samples.slice(firstInWindow);
    if (this.samples.length < this.minSamples) return null;
    return percentile(
      this.samples.map((sample) => sample.ms),
      95,
    );
  }
}
