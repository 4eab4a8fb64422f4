import { createMemoryRateLimitStore } from './memory-store.js';
import type { RateLimitStore } from './rate-limit-store.js';
import { createRedisRateLimitStore } from './redis-store.js';

/** REDIS_URL set: counters shared by every instance; unset: this process's memory (D1). */
export async function createRateLimitStore(redisUrl: string | null): Promise<RateLimitStore> {
  return redisUrl === null ? createMemoryRateLimitStore() : createRedisRateLimitStore(redisUrl);
}
