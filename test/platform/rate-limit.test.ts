import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createMemoryRateLimitStore } from '../../src/platform/http/rate-limit/memory-store.js';
import type { RateLimitStore } from '../../src/platform/http/rate-limit/rate-limit-store.js';
import { createTestContext } from '../support/app.js';
import { calls } from '../support/cast.js';
import { bearer, createUser, tokenFor } from '../support/factories.js';
import { clockedStore } from './clocked-store.js';

/** 10:00:15 UTC: 45 s left in the minute, 3,585 s in the hour. */
const HOUR_START = Date.UTC(2030, 0, 1, 10, 0, 0);
const AT = (minute: number, second = 15) => HOUR_START + minute * 60_000 + second * 1000;
// Refused by the gate before any work (401), yet counted against the caller's address.
const CHEAP = `/api/v1/nothing-${randomUUID()}`;

const limits = (response: LightMyRequestResponse) => ({
  limit: response.headers['x-ratelimit-limit'],
  remaining: response.headers['x-ratelimit-remaining'],
  reset: response.headers['x-ratelimit-reset'],
});

/**
 * The requests of this suite are built here rather than sent with the cast's `call` (test/support/cast.ts):
 * the limits count per address (each request names its `remoteAddress`) and per user (a fresh user per test,
 * so a budget of its own), and some requests carry no token or a forged one.
 */
describe('rate limits (D8, part 8)', async () => {
  const { store, clock, decisions } = clockedStore(createMemoryRateLimitStore(), AT(0));
  const ctx = await createTestContext({
    env: { RATE_LIMIT_PER_MINUTE: '100', RATE_LIMIT_PER_HOUR: '1000' },
    rateLimitStore: store,
  });
  const newUser = async () => {
    const user = await createUser(ctx, { role: 'admin' });
    return { user, headers: bearer(await tokenFor(ctx, user)) };
  };
  const me = (headers: Record<string, string>, remoteAddress = '127.0.0.1') =>
    ctx.app.inject({ method: 'GET', url: '/api/v1/me', headers, remoteAddress });

  it('every counted response carries X-RateLimit-Limit/Remaining/Reset: limit 100, remaining counting down, reset in whole seconds (D8)', async () => {
    clock.now = AT(0);
    const { headers } = await newUser();
    const seen = [];
    for (let i = 0; i < 5; i += 1) {
      const response = await me(headers);
      expect(response.statusCode, response.body).toBe(200);
      seen.push(limits(response));
    }
    expect(seen).toEqual([99, 98, 97, 96, 95].map((remaining) => ({ limit: '100', remaining: String(remaining), reset: '45' })));
    // Error answers are counted and carry the headers too.
    const notFound = await ctx.app.inject({ method: 'GET', url: '/api/v1/nothing-here', headers });
    expect(notFound.statusCode).toBe(404);
    expect(limits(notFound)).toEqual({ limit: '100', remaining: '94', reset: '45' });
    const invalid = await ctx.app.inject({ method: 'GET', url: '/api/v1/admin/enterprises/not-a-uuid/users', headers });
    expect(invalid.statusCode).toBe(400);
    expect(limits(invalid).remaining).toBe('93');
  });

  it('on the real clock, X-RateLimit-Reset is a whole number of seconds from 1 to 60 (D8, part 8)', async () => {
    clock.now = null;
    const { headers } = await newUser();
    const response = await me(headers);
    expect(response.statusCode).toBe(200);
    const reset = Number(response.headers['x-ratelimit-reset']);
    expect(Number.isInteger(reset)).toBe(true);
    expect(reset).toBeGreaterThanOrEqual(1);
    expect(reset).toBeLessThanOrEqual(60);
    expect(response.headers['x-ratelimit-limit']).toBe('100');
    expect(response.headers['x-ratelimit-remaining']).toBe('99');
  });

  it('the 101st request of a user in one minute is 429 RATE_LIMIT_EXCEEDED with retry_after and Retry-After (D8, part 7)', async () => {
    clock.now = AT(1);
    const { headers } = await newUser();
    for (let i = 1; i <= 100; i += 1) {
      const response = await me(headers);
      expect(response.statusCode, `request ${i}: ${response.body}`).toBe(200);
    }
    const refused = await me({ ...headers, 'x-request-id': 'limited-1' });
    expect(refused.statusCode).toBe(429);
    const body = refused.json();
    expect(body).toEqual({
      error: expect.any(String),
      code: 'RATE_LIMIT_EXCEEDED',
      request_id: 'limited-1',
      retry_after: 45,
    });
    expect(Number.isInteger(body.retry_after)).toBe(true);
    expect(refused.headers['retry-after']).toBe('45');
    expect(limits(refused)).toEqual({ limit: '100', remaining: '0', reset: '45' });
    expect(refused.headers['x-request-id']).toBe('limited-1');
  });

  it('refused requests are not counted: the hour window was charged for the 100 answered requests only (D8)', async () => {
    clock.now = AT(2);
    const { user, headers } = await newUser();
    for (let i = 0; i < 100; i += 1) expect((await me(headers)).statusCode).toBe(200);
    for (let i = 0; i < 7; i += 1) expect((await me(headers)).statusCode).toBe(429);
    expect(decisions.get(`user:${user.id}`)?.windows[1]?.remaining).toBe(900);
    // The next minute opens a fresh minute window; the hour has 1000 - 100 - 1 left.
    clock.now = AT(3);
    const next = await me(headers);
    expect(next.statusCode).toBe(200);
    expect(limits(next)).toEqual({ limit: '100', remaining: '99', reset: '45' });
    expect(decisions.get(`user:${user.id}`)?.windows[1]?.remaining).toBe(899);
  });

  it('a second user is unaffected by the first one being limited (D8: counted per user)', async () => {
    clock.now = AT(4);
    const first = await newUser();
    const second = await newUser();
    for (let i = 0; i < 100; i += 1) await me(first.headers);
    expect((await me(first.headers)).statusCode).toBe(429);
    const other = await me(second.headers);
    expect(other.statusCode).toBe(200);
    expect(limits(other).remaining).toBe('99');
    // Same address, different users: the budget follows the token's subject, not the address.
    expect((await me(second.headers, '127.0.0.1')).statusCode).toBe(200);
  });

  it('/health is not counted and carries no rate-limit headers, even for a limited caller (D8, D9.6)', async () => {
    clock.now = AT(5);
    const { headers } = await newUser();
    for (let i = 0; i < 100; i += 1) await me(headers);
    expect((await me(headers)).statusCode).toBe(429);
    const health = await ctx.app.inject({ method: 'GET', url: '/health', headers });
    expect(health.statusCode).toBe(200);
    expect(health.headers['x-ratelimit-limit']).toBeUndefined();
    expect(health.headers['x-ratelimit-remaining']).toBeUndefined();
    expect(health.headers['x-ratelimit-reset']).toBeUndefined();
    expect(health.headers['retry-after']).toBeUndefined();
  });

  it('unauthenticated requests are counted per client address; other addresses and users are unaffected (D8)', async () => {
    clock.now = AT(6);
    const { headers } = await newUser();
    for (let i = 1; i <= 100; i += 1) {
      const response = await ctx.app.inject({ method: 'GET', url: '/api/v1/me', remoteAddress: '203.0.113.7' });
      expect(response.statusCode).toBe(401);
      expect(response.headers['x-ratelimit-remaining']).toBe(String(100 - i));
    }
    const refused = await ctx.app.inject({ method: 'GET', url: CHEAP, remoteAddress: '203.0.113.7' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('RATE_LIMIT_EXCEEDED');
    // An invalid token does not escape the address budget.
    const forged = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/me',
      remoteAddress: '203.0.113.7',
      headers: { authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln' },
    });
    expect(forged.statusCode).toBe(429);
    const otherAddress = await ctx.app.inject({ method: 'GET', url: CHEAP, remoteAddress: '203.0.113.8' });
    expect(otherAddress.statusCode).toBe(401);
    expect(otherAddress.headers['x-ratelimit-remaining']).toBe('99');
    // A signed-in user calling from the limited address has a budget of their own.
    expect((await me(headers, '203.0.113.7')).statusCode).toBe(200);
  });

  it('the hour limit applies too, and the headers then describe the hour window (D8: both windows; fewest left)', async () => {
    const address = '198.51.100.20';
    // Without a token: only the address's budget counts.
    const anonymous = () => ctx.app.inject({ method: 'GET', url: CHEAP, remoteAddress: address });
    // Nine full minutes of 100, then 50: 950 of the hour's 1000 used.
    for (let minute = 10; minute < 19; minute += 1) {
      clock.now = AT(minute);
      for (let i = 0; i < 100; i += 1) expect((await anonymous()).statusCode).toBe(401);
    }
    clock.now = AT(19);
    for (let i = 0; i < 50; i += 1) expect((await anonymous()).statusCode).toBe(401);
    // A fresh minute: the minute window has 99 left, the hour 49, so the hour is shown.
    clock.now = AT(20);
    const hourly = await anonymous();
    expect(hourly.statusCode).toBe(401);
    const hourReset = String(3600 - 20 * 60 - 15);
    expect(limits(hourly)).toEqual({ limit: '1000', remaining: '49', reset: hourReset });
    for (let i = 0; i < 49; i += 1) expect((await anonymous()).statusCode).toBe(401);
    const refused = await anonymous();
    expect(refused.statusCode).toBe(429);
    expect(limits(refused)).toEqual({ limit: '1000', remaining: '0', reset: hourReset });
    expect(refused.headers['retry-after']).toBe(hourReset);
    expect(refused.json().retry_after).toBe(Number(hourReset));
    // The next hour starts afresh.
    clock.now = AT(60);
    expect(limits(await anonymous())).toEqual({ limit: '100', remaining: '99', reset: '45' });
  });
});

describe('rate-limit store failure (D8)', async () => {
  const failing: RateLimitStore = {
    consume: async () => {
      throw new Error('connect ECONNREFUSED 127.0.0.1:6379');
    },
    close: async () => undefined,
  };
  const ctx = await createTestContext({ env: { RATE_LIMIT_PER_MINUTE: '100' }, rateLimitStore: failing });

  const { call } = calls(ctx);

  it('a store that cannot be reached lets requests through uncounted instead of failing them', async () => {
    const user = await createUser(ctx, { role: 'admin' });
    const response = await call(user, 'GET', '/me');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['x-ratelimit-limit']).toBeUndefined();
  });
});
