import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors/app-error.js';
import type { RateLimitStore, WindowSpec, WindowState } from './rate-limit-store.js';

export interface RateLimitOptions {
  store: RateLimitStore;
  perMinute: number;
  perHour: number;
  /** Told of each refusal (the metrics count them). */
  onRefused?: () => void;
}

/** Counts one request against a counter key and refuses it (429) when a window is used up (D8). */
export type RateLimiter = (request: FastifyRequest, reply: FastifyReply, key: string) => Promise<void>;

/** The window with the fewest requests left is the one the headers describe. */
function tightest(windows: readonly WindowState[]): WindowState {
  return windows.reduce((a, b) => (b.remaining < a.remaining ? b : a));
}

export function createRateLimiter(options: RateLimitOptions): RateLimiter {
  const windows: WindowSpec[] = [
    { windowSeconds: 60, limit: options.perMinute },
    { windowSeconds: 3600, limit: options.perHour },
  ];
  return async (request, reply, key) => {
    let decision;
    try {
      decision = await options.store.consume(key, windows, Date.now());
    } catch (error) {
      // A shared store that is down (Redis) must not take the API down with it: the request goes
      // uncounted and the operators hear about it.
      request.log.error({ err: error }, 'rate-limit store unavailable; request not counted');
      return;
    }
    const shown = tightest(decision.windows);
    reply.header('x-ratelimit-limit', shown.limit);
    reply.header('x-ratelimit-remaining', shown.remaining);
    reply.header('x-ratelimit-reset', shown.resetSeconds);
    if (!decision.allowed) {
      const retryAfter = Math.max(...decision.windows.filter((w) => w.remaining === 0).map((w) => w.resetSeconds));
      reply.header('retry-after', retryAfter);
      options.onRefused?.();
      throw new AppError('RATE_LIMIT_EXCEEDED', 'Too many requests', undefined, { retry_after: retryAfter });
    }
  };
}

export const addressKey = (request: FastifyRequest) => `ip:${request.ip}`;

/**
 * Per client address, whatever the request carries: for scopes without a user of their own (the identity
 * provider, unknown paths). A bearer token there must not move the count onto an account.
 */
export function limitByAddress(scope: FastifyInstance, limiter: RateLimiter): void {
  scope.addHook('onRequest', async (request, reply) => limiter(request, reply, addressKey(request)));
}
