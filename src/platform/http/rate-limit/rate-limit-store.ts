/**
 * Rate-limit counters (D8): fixed windows aligned to the epoch, checked and counted atomically so that a
 * refused request is never counted. The memory store serves one instance; the Redis store lets every
 * instance share one budget.
 */
export interface WindowSpec {
  windowSeconds: number;
  limit: number;
}

export interface WindowState {
  limit: number;
  /** Requests left in this window after this one. */
  remaining: number;
  /** Whole seconds until the window resets. */
  resetSeconds: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  windows: WindowState[];
}

export interface RateLimitStore {
  consume(key: string, windows: readonly WindowSpec[], nowMs: number): Promise<RateLimitDecision>;
  close(): Promise<void>;
}

export function windowIndex(nowMs: number, windowSeconds: number): number {
  return Math.floor(nowMs / (windowSeconds * 1000));
}

export function secondsUntilReset(nowMs: number, windowSeconds: number): number {
  const sizeMs = windowSeconds * 1000;
  const endMs = (windowIndex(nowMs, windowSeconds) + 1) * sizeMs;
  return Math.max(1, Math.ceil((endMs - nowMs) / 1000));
}

/** Turns the counts a store read (before counting this request) into a decision. */
export function decide(windows: readonly WindowSpec[], counts: readonly number[], nowMs: number): RateLimitDecision {
  const allowed = windows.every((spec, i) => (counts[i] ?? 0) < spec.limit);
  return {
    allowed,
    windows: windows.map((spec, i) => {
      const used = (counts[i] ?? 0) + (allowed ? 1 : 0);
      return {
        limit: spec.limit,
        remaining: Math.max(0, spec.limit - used),
        resetSeconds: secondsUntilReset(nowMs, spec.windowSeconds),
      };
    }),
  };
}
