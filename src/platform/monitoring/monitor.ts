import type { FastifyRequest } from 'fastify';

/**
 * What the platform reports so that system alerts (D9.5) can be raised. Calls are cheap and synchronous:
 * counting happens in memory and alerts are written off the request path.
 */
export interface Monitor {
  /** Every finished request, for the performance percentile. */
  recordResponse(durationMs: number): void;
  /** A refused sign-in or a refused token, for one account (when known) and from one address. */
  authFailure(input: { account: string | null; enterpriseId: string | null; ip: string }): void;
  /** An unexpected error that answered 500. */
  unexpectedError(error: unknown, request: FastifyRequest): void;
  /** A database failure; `unreachable` when the request answered 503. */
  databaseError(error: unknown, unreachable: boolean): void;
  /** Stops timers and flushes what is pending (shutdown). */
  close(): Promise<void>;
}
