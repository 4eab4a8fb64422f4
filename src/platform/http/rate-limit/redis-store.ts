import { Redis } from 'ioredis';
import { decide, windowIndex, type RateLimitStore } from './rate-limit-store.js';

/**
 * Check-and-count in one Lua script, so that two instances never both take the last request of a
 * window and a refused request is never counted. KEYS: one counter per window; ARGV: limits, then TTLs.
 * Returns the counts before this request; it counted only when every count was under its limit.
 */
const CONSUME = `
local n = #KEYS
local counts = {}
local allowed = true
for i = 1, n do
  counts[i] = tonumber(redis.call('GET', KEYS[i]) or '0')
  if counts[i] >= tonumber(ARGV[i]) then allowed = false end
end
if allowed then
  for i = 1, n do
    local v = redis.call('INCR', KEYS[i])
    if v == 1 then redis.call('PEXPIRE', KEYS[i], ARGV[n + i]) end
  end
end
return counts
`;

export async function createRedisRateLimitStore(url: string, prefix = 'ratelimit'): Promise<RateLimitStore> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2, enableOfflineQueue: true });
  // Without a listener ioredis reports every lost connection as an unhandled error event; a failed
  // command still rejects, and the rate-limit hook lets the request through uncounted.
  redis.on('error', () => undefined);
  await redis.connect();
  redis.defineCommand('rateLimitConsume', { lua: CONSUME });
  const consume = (redis as unknown as { rateLimitConsume: (...args: unknown[]) => Promise<number[]> }).rateLimitConsume.bind(
    redis,
  );

  return {
    async consume(key, windows, nowMs) {
      const keys = windows.map((spec) => `${prefix}:${key}:${spec.windowSeconds}:${windowIndex(nowMs, spec.windowSeconds)}`);
      const ttls = windows.map((spec) => {
        const endMs = (windowIndex(nowMs, spec.windowSeconds) + 1) * spec.windowSeconds * 1000;
        return Math.max(1, endMs - nowMs + 1000);
      });
      const counts = await consume(keys.length, ...keys, ...windows.map((w) => w.limit), ...ttls);
      return decide(windows, counts.map(Number), nowMs);
    },
    async close() {
      await redis.quit();
    },
  };
}
