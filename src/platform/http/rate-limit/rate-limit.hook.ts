import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import type { TokenVerifier } from '../../auth/token-verifier.js';
import type { RateLimitStore, WindowSpec, WindowState } from './rate-limit-store.js';

export interface RateLimitOptions {
  store: RateLimitStore;
  perMinute: number;
  perHour: number;
  verify: TokenVerifier;
}

/** Per user (the verified token's `sub`) when authenticated, per client address otherwise (D8). */
async function counterKey(request: FastifyRequest, verify: TokenVerifier): Promise<string> {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) {
    try {
      return `user:${(await verify(header.slice(7))).sub}`;
    } catch {
      // An invalid token is counted against the address it came from.
    }
  }
  return `ip:${request.ip}`;
}

/** The window with the fewest requests left is the one the headers describe. */
function tightest(windows: readonly WindowState[]): WindowState {
  return windows.reduce((a, b) => (b.remaining < a.remaining ? b : a));
}

export function registerRateLimits(app: FastifyInstance, options: RateLimitOptions): void {
  const windows: WindowSpec[] = [
    { windowSeconds: 60, limit: options.perMinute },
    { windowSeconds: 3600, limit: options.perHour },
  ];
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config?.rateLimited === false) return;
    // Unknown routes (404) are counted too: probing is traffic.
    const key = await counterKey(request, options.verify);
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
      throw new AppError('RATE_LIMIT_EXCEEDED', 'Too many requests', undefined, { retry_after: retryAfter });
    }
  });
}
