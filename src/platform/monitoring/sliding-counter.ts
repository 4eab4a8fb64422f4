/**
 * Counts events per key over a sliding window, in memory. Bounded: keys whose events have all aged out
 * are dropped on the next sweep, and a key keeps at most `cap` timestamps (enough to know "at least cap").
 */
export class SlidingCounter {
  private readonly events = new Map<string, number[]>();

  constructor(
    private readonly windowMs: number,
    private readonly cap = 1000,
  ) {}

  /** Records one event and returns how many fall inside the window, this one included. */
  hit(key: string, now: number): number {
    const since = now - this.windowMs;
    const list = (this.events.get(key) ?? []).filter((at) => at > since);
    list.push(now);
    if (list.length > this.cap) list.splice(0, list.length - this.cap);
    this.events.set(key, list);
    return list.length;
  }

  sweep(now: number): void {
    const since = now - this.windowMs;
    for (const [key, list] of this.events) if (list.every((at) => at <= since)) this.events.delete(key);
  }
}

/** The p-th percentile (0..100) of the values, nearest-rank; 0 for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] as number;
}
