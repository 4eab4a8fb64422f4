import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createRedisRateLimitStore } from '../../src/platform/http/rate-limit/redis-store.js';
import type { WindowSpec } from '../../src/platform/http/rate-limit/rate-limit-store.js';
import { createTestContext } from '../support/app.js';
import { calls } from '../support/cast.js';
import { createUser, tokenFor } from '../support/factories.js';
import { clockedStore } from './clocked-store.js';

const REDIS_URL = process.env['TEST_REDIS_URL']?.trim() || 'redis://127.0.0.1:6379';
const NOW = Date.UTC(2030, 0, 1, 10, 0, 15);

async function redisAnswers(url: string): Promise<string | null> {
  const { hostname, port } = new URL(url);
  const reachable = await new Promise<boolean>((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || 6379) });
    const settle = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(1_000);
    socket.once('connect', () => settle(true));
    socket.once('error', () => settle(false));
    socket.once('timeout', () => settle(false));
  });
  if (!reachable) return `nothing listens on ${hostname}:${port}`;
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG' ? null : 'PING did not answer PONG';
  } catch (error) {
    return `Redis refused: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    probe.disconnect();
  }
}

const unavailable = await redisAnswers(REDIS_URL);
if (unavailable !== null) console.log(`Skipping the Redis rate-limit suite: ${unavailable} (${REDIS_URL}).`);

/** Two app instances on one database, each with its own Redis store under one per-run prefix. */
async function twoInstances() {
  // A prefix of its own per run, so that parallel runs and earlier runs never share counters.
  const prefix = `ratelimit-test-${randomUUID()}`;
  const first = clockedStore(await createRedisRateLimitStore(REDIS_URL, prefix), NOW);
  const second = clockedStore(await createRedisRateLimitStore(REDIS_URL, prefix), NOW);
  const env = { RATE_LIMIT_PER_MINUTE: '10', RATE_LIMIT_PER_HOUR: '1000' };
  const one = await createTestContext({ env, rateLimitStore: first.store });
  // The second instance shares the database (as instances of one deployment do), so one token serves both.
  const two = await createTestContext({ env, database: one.database, rateLimitStore: second.store });
  const admin = new Redis(REDIS_URL);
  afterAll(async () => {
    const keys = await admin.keys(`${prefix}:*`);
    if (keys.length > 0) await admin.del(...keys);
    await admin.quit();
  });
  return { prefix, first, second, one, two, admin };
}

describe.skipIf(unavailable !== null)('rate limits shared through Redis (D1 REDIS_URL, D8)', async () => {
  // A skipped suite is still collected: set nothing up when Redis is not there.
  const { prefix, first, second, one, two, admin } = unavailable === null ? await twoInstances() : ({} as Awaited<ReturnType<typeof twoInstances>>);

  it('two instances share one budget: 6 on one and 4 on the other leave nothing, the 11th is 429 on either (D8)', async () => {
    const user = await createUser(one, { role: 'admin' });
    // One session's token on either instance: the budget is the user's, wherever they call from.
    const token = await tokenFor(one, user);
    const meOn = (ctx: typeof one) => calls(ctx).call(token, 'GET', '/me');
    const remaining: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      const response = await meOn(one);
      expect(response.statusCode, response.body).toBe(200);
      remaining.push(String(response.headers['x-ratelimit-remaining']));
    }
    for (let i = 0; i < 4; i += 1) {
      const response = await meOn(two);
      expect(response.statusCode, response.body).toBe(200);
      remaining.push(String(response.headers['x-ratelimit-remaining']));
    }
    expect(remaining).toEqual(['9', '8', '7', '6', '5', '4', '3', '2', '1', '0']);
    const refusedOnTwo = await meOn(two);
    expect(refusedOnTwo.statusCode).toBe(429);
    expect(refusedOnTwo.json()).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', retry_after: 45 });
    expect(refusedOnTwo.headers['retry-after']).toBe('45');
    expect((await meOn(one)).statusCode).toBe(429);
    // Refusals were not counted: the shared hour counter holds the 10 answered requests.
    expect(second.decisions.get(`user:${user.id}`)?.windows[1]?.remaining).toBe(990);
  });

  it('another user keeps a budget of their own across instances (D8)', async () => {
    const user = await createUser(one, { role: 'admin' });
    const response = await calls(two).call(await tokenFor(one, user), 'GET', '/me');
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-ratelimit-remaining']).toBe('9');
  });

  it('concurrent requests on both instances never overspend the budget (one atomic check-and-count)', async () => {
    const windows: WindowSpec[] = [
      { windowSeconds: 60, limit: 10 },
      { windowSeconds: 3600, limit: 1000 },
    ];
    const key = `user:${randomUUID()}`;
    const decisions = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? first : second).store.consume(key, windows, NOW)),
    );
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(10);
    const counters = await admin.mget(await admin.keys(`${prefix}:${key}:*`));
    expect(counters.map(Number).sort((a, b) => a - b)).toEqual([10, 10]);
  });

  it('counters expire with their window', async () => {
    const key = `user:${randomUUID()}`;
    await first.store.consume(key, [{ windowSeconds: 60, limit: 10 }], Date.now());
    const [counter] = await admin.keys(`${prefix}:${key}:*`);
    const ttl = await admin.pttl(counter as string);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(61_000);
  });
});
