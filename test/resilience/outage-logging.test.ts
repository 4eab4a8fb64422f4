import { sql } from 'kysely';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { buildApp, type AppDeps } from '../../src/app.js';
import { loggerOptions } from '../../src/platform/http/logging.js';
import { createMemoryRateLimitStore } from '../../src/platform/http/rate-limit/memory-store.js';
import { TEST_PASSWORD_COST, createTestContext } from '../support/app.js';
import { bearer, createUser, tokenFor } from '../support/factories.js';

/**
 * Issue 44.6: during a database outage every request fails alike, and a stack trace per request buried the
 * one line an operator needs. Each 503 logs one line (the operation and the cause's code and first line);
 * the cause's stack at most once a minute. The outage is real: PostgreSQL ends the service's connections
 * while requests run (as in connection-loss.test.ts).
 */
describe('a database outage logs one line per 503, not a stack trace per request', async () => {
  const ctx = await createTestContext();
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter((line) => line !== ''));
      done();
    },
  });
  const rateLimitStore = createMemoryRateLimitStore();
  const app = await buildApp({
    config: ctx.config,
    database: ctx.database,
    secrets: ctx.secrets,
    monitor: ctx.monitor,
    rateLimitStore,
    logger: { ...(loggerOptions('info') as object), stream } as AppDeps['logger'],
    passwordCost: TEST_PASSWORD_COST,
  });
  afterAll(async () => {
    await app.close();
    await rateLimitStore.close();
  });
  const admin = await createUser(ctx, { role: 'admin' });
  const headers = bearer(await tokenFor(ctx, admin));
  const runtimeRole = inject('runtimeRole').name;
  const terminate = () =>
    sql`select pg_terminate_backend(pid) from pg_stat_activity
        where usename = ${runtimeRole} and datname = current_database() and pid <> pg_backend_pid()`.execute(ctx.db);

  it('every 503 has exactly one log line at warn or above, with its cause in one line; stacks at most once', async () => {
    const unavailable: string[] = [];
    for (let round = 0; round < 8 && unavailable.length < 5; round += 1) {
      const inFlight = Array.from({ length: 30 }, (_, i) =>
        i % 2 === 0
          ? app.inject({ method: 'GET', url: '/api/v1/legal-entities', headers })
          : app.inject({ method: 'POST', url: '/api/v1/admin/legal-entities', headers, payload: { name: `Outage ${round}-${i}` } }),
      );
      await terminate();
      await new Promise((resolve) => setImmediate(resolve));
      await terminate();
      for (const response of await Promise.all(inFlight)) {
        expect([200, 201, 503], response.body).toContain(response.statusCode);
        if (response.statusCode === 503) unavailable.push(String(response.headers['x-request-id']));
      }
    }
    expect(unavailable.length, 'the outage failed some requests').toBeGreaterThan(1);
    const entries = lines.map((line) => JSON.parse(line) as { level: number; reqId?: string; msg?: string; cause?: string; err?: { stack?: string } });
    for (const id of unavailable) {
      const loud = entries.filter((entry) => entry.reqId === id && entry.level >= 40);
      expect(loud.map((entry) => entry.msg), `request ${id}`).toEqual(['The database is unavailable']);
      expect(loud[0]!.cause).toMatch(/\S/);
      expect(loud[0]!.cause).not.toContain('\n');
    }
    const stacks = entries.filter((entry) => unavailable.includes(entry.reqId ?? '') && entry.err?.stack !== undefined);
    expect(stacks.length).toBeLessThanOrEqual(1);
  });
});
