import { sql } from 'kysely';
import { inject, describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { bearer, createUser, tokenFor } from '../support/factories.js';

/**
 * Finding 1: PostgreSQL ending the service's connections during traffic (a failover, a restart,
 * `pg_terminate_backend`) ended the Node process with an unhandled 'error' event (57P01): a connection held
 * by a request had no error listener. Here the connections of the service's role are terminated again and
 * again while reads and writes run; an unhandled 'error' event would fail the run.
 */
describe('the database ending the service connections under load (finding 1)', async () => {
  const ctx = await createTestContext();
  const admin = await createUser(ctx, { role: 'admin' });
  const headers = bearer(await tokenFor(ctx, admin));
  const runtimeRole = inject('runtimeRole').name;

  const terminateServiceConnections = () =>
    sql`select pg_terminate_backend(pid) from pg_stat_activity
        where usename = ${runtimeRole} and datname = current_database() and pid <> pg_backend_pid()`.execute(ctx.db);

  const request = (i: number) =>
    i % 2 === 0
      ? ctx.app.inject({ method: 'GET', url: '/api/v1/legal-entities', headers })
      : ctx.app.inject({ method: 'POST', url: '/api/v1/admin/legal-entities', headers, payload: { name: `Entity under load ${i}` } });

  const statuses = new Map<number, number>();

  it('answers 503 SERVICE_UNAVAILABLE or succeeds, never a 500, and the process stays up', async () => {
    for (let round = 0; round < 5; round += 1) {
      const inFlight = Array.from({ length: 40 }, (_, i) => request(round * 40 + i));
      await terminateServiceConnections();
      await new Promise((resolve) => setImmediate(resolve));
      await terminateServiceConnections();
      for (const response of await Promise.all(inFlight)) {
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
        expect([200, 201, 503], response.body).toContain(response.statusCode);
        if (response.statusCode === 503) {
          expect(response.json()).toEqual({ error: 'The database is unavailable', code: 'SERVICE_UNAVAILABLE', request_id: response.headers['x-request-id'] });
        }
      }
    }
    expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
  });

  it('raises one database alert for the outage, however many requests it failed', async () => {
    await ctx.monitor.flush();
    const alerts = await ctx.db.selectFrom('system_alerts').select(['type', 'cause']).where('type', '=', 'database').execute();
    // Requests that found their connection gone answered 503; each reported it, and one alert came of it.
    expect(statuses.get(503) ?? 0).toBeGreaterThan(0);
    expect(alerts).toEqual([{ type: 'database', cause: 'unreachable' }]);
  });

  it('serves again by itself within 5 s of the connections being gone: health 200, then reads and writes', async () => {
    await terminateServiceConnections();
    const deadline = Date.now() + 5_000;
    let health = await ctx.app.inject({ method: 'GET', url: '/health' });
    while (health.statusCode !== 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      health = await ctx.app.inject({ method: 'GET', url: '/health' });
    }
    expect(health.statusCode, health.body).toBe(200);
    const created = await request(100_001);
    expect(created.statusCode, created.body).toBe(201);
    const listed = await request(0);
    expect(listed.statusCode, listed.body).toBe(200);
  });
});
