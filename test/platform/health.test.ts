import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { openDatabase } from '../../src/platform/db/engine.js';
import { createMemoryRateLimitStore } from '../../src/platform/http/rate-limit/memory-store.js';
import { createMonitor } from '../../src/platform/monitoring/alert-monitor.js';
import { createTestContext } from '../support/app.js';
import { bearer, createUser, tokenFor } from '../support/factories.js';
import { mountProbes } from './probes.js';

const UNREACHABLE_URL = 'postgres://postgres@127.0.0.1:1/none';
const silent = { error: () => undefined, warn: () => undefined, info: () => undefined };

describe('health (D9.6)', async () => {
  const ctx = await createTestContext({ env: { RATE_LIMIT_PER_MINUTE: '100', RATE_LIMIT_PER_HOUR: '1000' } });

  it('answers 200 {status ok, version, database ok} without a token (D9.6, 9.2)', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/health' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', version: ctx.config.version, database: 'ok' });
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['x-request-id']).toBeTruthy();
  });

  it('is not rate-limited: no X-RateLimit headers, and calls do not use the caller budget (D8, D9.6)', async () => {
    for (let i = 0; i < 120; i += 1) {
      const response = await ctx.app.inject({ method: 'GET', url: '/health', remoteAddress: '10.9.9.9' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-ratelimit-limit']).toBeUndefined();
      expect(response.headers['x-ratelimit-remaining']).toBeUndefined();
      expect(response.headers['x-ratelimit-reset']).toBeUndefined();
    }
    // 120 health checks later the same address still has its whole minute (100) minus this request.
    const counted = await ctx.app.inject({ method: 'GET', url: '/api/v1/me', remoteAddress: '10.9.9.9' });
    expect(counted.headers['x-ratelimit-remaining']).toBe('99');
  });

  it('ignores a bearer token, even an invalid one (D9.6)', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/health', headers: { authorization: 'Bearer not.a.token' } });
    expect(response.statusCode).toBe(200);
  });
});

describe('database closed: health 503 and routes 503 SERVICE_UNAVAILABLE (D2.2, D9.6)', async () => {
  const ctx = await createTestContext({ extend: mountProbes });
  const user = await createUser(ctx, { role: 'admin' });
  const token = await tokenFor(ctx, user);
  await ctx.database.close();

  it('health answers 503 {status unavailable, database unreachable} (D9.6)', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/health' });
    expect(response.statusCode, response.body).toBe(503);
    expect(response.json()).toEqual({ status: 'unavailable', database: 'unreachable' });
  });

  it('a route that queries answers 503 SERVICE_UNAVAILABLE in the contract body, without driver text (D2.2)', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/v1/probe/query', headers: { 'x-request-id': 'db-down-1' } });
    expect(response.statusCode, response.body).toBe(503);
    expect(response.json()).toEqual({ error: 'The database is unavailable', code: 'SERVICE_UNAVAILABLE', request_id: 'db-down-1' });
  });

  it('an authenticated route whose principal lookup fails answers 503, not 401 or 500 (D2.2)', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(token) });
    expect(response.statusCode, response.body).toBe(503);
    expect(response.json().code).toBe('SERVICE_UNAVAILABLE');
  });
});

describe('database server unreachable (D2.2, D9.6)', async () => {
  // Tokens are minted against a working database; the app under test points at a closed port.
  const ctx = await createTestContext();
  const user = await createUser(ctx, { role: 'admin' });
  const token = await tokenFor(ctx, user);
  const database = await openDatabase({ kind: 'postgres', url: UNREACHABLE_URL }, { poolSize: 1 });
  const monitor = createMonitor(database.db, silent, { intervalMs: 3_600_000 });
  const rateLimitStore = createMemoryRateLimitStore();
  const app = await buildApp({
    config: ctx.config,
    database,
    secrets: ctx.secrets,
    monitor,
    rateLimitStore,
    logger: false,
    extend: mountProbes,
  });
  afterAll(async () => {
    await app.close();
    await monitor.close();
    await rateLimitStore.close();
    await database.close();
  });

  it('health answers 503 {status unavailable, database unreachable} within its time budget (D9.6)', async () => {
    const started = Date.now();
    const response = await app.inject({ method: 'GET', url: '/health' });
    expect(response.statusCode, response.body).toBe(503);
    expect(response.json()).toEqual({ status: 'unavailable', database: 'unreachable' });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('a route that queries answers 503 SERVICE_UNAVAILABLE (D2.2)', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/v1/probe/query' });
    expect(response.statusCode, response.body).toBe(503);
    const body = response.json();
    expect(body.code).toBe('SERVICE_UNAVAILABLE');
    expect(response.body).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|connect/);
  });

  it('an authenticated request answers 503 SERVICE_UNAVAILABLE (D2.2)', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(token) });
    expect(response.statusCode, response.body).toBe(503);
    expect(response.json().code).toBe('SERVICE_UNAVAILABLE');
  });
});
