import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { AppDeps } from '../../src/app.js';
import { raiseAlert, type AlertInput } from '../../src/platform/monitoring/alert-raiser.js';
import { createTestContext, type TestContext } from '../support/app.js';
import { freshDatabase } from '../support/database.js';
import { bearer, createEnterprise, createUser, tokenFor } from '../support/factories.js';

/** Probe routes that fail the ways D9.5 watches for. Public: no token needed. */
const failingProbes: NonNullable<AppDeps['extend']> = (app, platform) => {
  app.get('/api/v1/probe/boom', { config: { public: true } }, async () => {
    throw new Error('boom');
  });
  app.get('/api/v1/probe/bad-sql', { schema: { operationId: 'probe.bad_sql' }, config: { public: true } }, async () => {
    await sql`select nothing from no_such_table_for_alerts`.execute(platform.database.db);
    return { data: null };
  });
  app.get('/api/v1/probe/db-down', { schema: { operationId: 'probe.db_down' }, config: { public: true } }, async () => {
    throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
  });
};

async function alertsWhere(ctx: TestContext, filter: { type?: AlertInput['type']; cause?: string }) {
  let query = ctx.db.selectFrom('system_alerts').selectAll();
  if (filter.type !== undefined) query = query.where('type', '=', filter.type);
  if (filter.cause !== undefined) query = query.where('cause', '=', filter.cause);
  return query.orderBy('created_at').execute();
}

async function invalidTokens(ctx: TestContext, count: number, remoteAddress: string) {
  for (let i = 0; i < count; i += 1) {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/v1/me', remoteAddress, headers: bearer('not.a.token') });
    expect(response.statusCode).toBe(401);
  }
}

describe('system alerts raised through the real paths (D9.5)', async () => {
  const ctx = await createTestContext({ extend: failingProbes });

  it('10 invalid tokens from one address within 5 minutes raise one authentication alert (warning)', async () => {
    await invalidTokens(ctx, 9, '10.1.0.1');
    await ctx.monitor.flush();
    expect(await alertsWhere(ctx, { cause: 'address:10.1.0.1' })).toEqual([]);

    await invalidTokens(ctx, 1, '10.1.0.1');
    await ctx.monitor.flush();
    await invalidTokens(ctx, 5, '10.1.0.1');
    await ctx.monitor.flush();
    const alerts = await alertsWhere(ctx, { cause: 'address:10.1.0.1' });
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ type: 'authentication', severity: 'warning', status: 'open', enterprise_id: null });
  });

  it('50 invalid tokens from one address escalate the one alert to error', async () => {
    await invalidTokens(ctx, 50, '10.1.0.2');
    await ctx.monitor.flush();
    const alerts = await alertsWhere(ctx, { cause: 'address:10.1.0.2' });
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ type: 'authentication', severity: 'error', status: 'open' });
  });

  it('tokens of a known but refused account (ended session) count for that account: one alert, not one per key', async () => {
    const user = await createUser(ctx, { role: 'admin' });
    const token = await tokenFor(ctx, user);
    await ctx.db.updateTable('auth_sessions').set({ revoked_at: new Date() }).where('user_id', '=', user.id).execute();
    for (let i = 0; i < 10; i += 1) {
      const response = await ctx.app.inject({ method: 'GET', url: '/api/v1/me', remoteAddress: '10.1.0.3', headers: bearer(token) });
      expect(response.statusCode).toBe(401);
    }
    await ctx.monitor.flush();
    const forAccount = await alertsWhere(ctx, { cause: `account:${user.id}` });
    expect(forAccount).toHaveLength(1);
    expect(await alertsWhere(ctx, { cause: 'address:10.1.0.3' })).toEqual([]);
  });

  it('an over-long cause still alerts (keyed by its hash) and does not block the next alert', async () => {
    // The probe's finding: ten refused sign-ins for a 9,000-character account made a cause too long for
    // the unique index, and the queue retried it first forever. Reported through the monitor directly:
    // the provider now refuses such an e-mail before it counts.
    const account = `${'x'.repeat(9000)}@example.test`;
    for (let i = 0; i < 10; i += 1) ctx.monitor.authFailure({ account, enterpriseId: null, ip: '10.1.0.9' });
    const boom = await ctx.app.inject({ method: 'GET', url: '/api/v1/probe/boom' });
    expect(boom.statusCode).toBe(500);
    await ctx.monitor.flush();
    const long = await ctx.db.selectFrom('system_alerts').selectAll().where('type', '=', 'authentication').where('cause', 'like', 'account:xxx%').execute();
    expect(long).toHaveLength(1);
    expect(long[0]!.cause.length).toBeLessThanOrEqual(500);
    expect(await alertsWhere(ctx, { type: 'system', cause: 'GET /api/v1/probe/boom:Error' })).toHaveLength(1);

    // Written directly, a cause of any length is one alert per hash: raised, then deduplicated, then escalated.
    const cause = `address:${'9'.repeat(20_000)}`;
    const alert: AlertInput = { type: 'authentication', severity: 'warning', title: 't', message: 'm', enterpriseId: null, cause };
    expect(await raiseAlert(ctx.db, alert)).toBe('raised');
    expect(await raiseAlert(ctx.db, alert)).toBe('exists');
    expect(await raiseAlert(ctx.db, { ...alert, severity: 'error' })).toBe('escalated');
    expect(await raiseAlert(ctx.db, { ...alert, cause: `${cause}0` })).toBe('raised');
  });

  it('a 500 raises one system alert (critical); repeated 500s keep it one', async () => {
    for (let i = 0; i < 3; i += 1) {
      const response = await ctx.app.inject({ method: 'GET', url: '/api/v1/probe/boom' });
      expect(response.statusCode).toBe(500);
      await ctx.monitor.flush();
    }
    const alerts = await alertsWhere(ctx, { type: 'system' });
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ severity: 'critical', status: 'open', enterprise_id: null, cause: 'GET /api/v1/probe/boom:Error' });
    // The class and route only: an error's own text may carry SQL or personal data (the log keeps it).
    expect(alerts[0]?.message).toMatch(/^Error in GET \/api\/v1\/probe\/boom \(first seen in request [0-9a-f-]{36}\)$/);
  });

  it('a database error raises a database alert (error) besides the system alert', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/v1/probe/bad-sql' });
    expect(response.statusCode).toBe(500);
    await ctx.app.inject({ method: 'GET', url: '/api/v1/probe/bad-sql' });
    await ctx.monitor.flush();
    const alerts = await alertsWhere(ctx, { type: 'database' });
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ severity: 'error', cause: 'error:42P01', enterprise_id: null });
    expect(await alertsWhere(ctx, { type: 'system', cause: 'probe.bad_sql:SQLSTATE 42P01' })).toHaveLength(1);
  });

  it('an unreachable database (503) raises a critical database alert', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/v1/probe/db-down' });
    expect(response.statusCode).toBe(503);
    await ctx.monitor.flush();
    const alerts = await alertsWhere(ctx, { type: 'database', cause: 'unreachable' });
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ severity: 'critical', title: 'Database unreachable' });
  });

  it('addPeriodicCheck: a registered check raises its alerts on the next round, one per type, enterprise and cause', async () => {
    const first = await createEnterprise(ctx);
    const second = await createEnterprise(ctx);
    let rounds = 0;
    ctx.monitor.addPeriodicCheck(async (db) => {
      rounds += 1;
      const enterprises = await db.selectFrom('enterprises').select('id').where('id', 'in', [first.id, second.id]).execute();
      return enterprises.map(({ id }) => ({
        type: 'enterprise_health' as const,
        severity: 'warning' as const,
        title: 'Overdue high-priority actions',
        message: 'Test condition',
        enterpriseId: id,
        cause: 'test_condition',
      }));
    });
    ctx.monitor.addPeriodicCheck(async () => {
      throw new Error('a broken check');
    });
    await ctx.monitor.flush();
    await ctx.monitor.flush();
    expect(rounds).toBe(2);
    const alerts = await alertsWhere(ctx, { type: 'enterprise_health', cause: 'test_condition' });
    expect(alerts.map((alert) => alert.enterprise_id).sort()).toEqual([first.id, second.id].sort());
    expect(alerts.every((alert) => alert.status === 'open' && alert.severity === 'warning')).toBe(true);
  });
});

describe('alert dedup in the database (D9.5: at most one unresolved alert per type, enterprise and cause)', async () => {
  const ctx = await createTestContext();
  const input = (values: Partial<AlertInput> = {}): AlertInput => ({
    type: 'database',
    severity: 'error',
    title: 'Database error',
    message: 'Database error 40001',
    enterpriseId: null,
    cause: `error:${randomUUID()}`,
    ...values,
  });

  it('raises once, escalates to a graver severity, never lowers it', async () => {
    const alert = input();
    expect(await raiseAlert(ctx.db, alert)).toBe('raised');
    expect(await raiseAlert(ctx.db, alert)).toBe('exists');
    expect(await raiseAlert(ctx.db, { ...alert, severity: 'critical' })).toBe('escalated');
    expect(await raiseAlert(ctx.db, { ...alert, severity: 'warning' })).toBe('exists');
    const rows = await alertsWhere(ctx, { cause: alert.cause });
    expect(rows.map((row) => row.severity)).toEqual(['critical']);
  });

  it('keeps platform-wide and per-enterprise alerts apart, and each enterprise apart', async () => {
    const cause = `error:${randomUUID()}`;
    const [a, b] = [await createEnterprise(ctx), await createEnterprise(ctx)];
    for (const enterpriseId of [null, a.id, b.id, null, a.id]) {
      await raiseAlert(ctx.db, input({ type: 'enterprise_health', severity: 'warning', cause, enterpriseId }));
    }
    expect((await alertsWhere(ctx, { cause })).map((row) => row.enterprise_id).sort()).toEqual([a.id, b.id, null].sort());
  });

  it('an acknowledged alert still holds its cause; a resolved one frees it', async () => {
    const alert = input();
    await raiseAlert(ctx.db, alert);
    await ctx.db.updateTable('system_alerts').set({ status: 'acknowledged' }).where('cause', '=', alert.cause).execute();
    expect(await raiseAlert(ctx.db, alert)).toBe('exists');
    await ctx.db.updateTable('system_alerts').set({ status: 'resolved' }).where('cause', '=', alert.cause).execute();
    expect(await raiseAlert(ctx.db, alert)).toBe('raised');
    const rows = await alertsWhere(ctx, { cause: alert.cause });
    expect(rows.map((row) => row.status)).toEqual(['resolved', 'open']);
  });

  it('concurrent raises of one condition leave one alert', async () => {
    const alert = input();
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => raiseAlert(ctx.db, alert)));
    expect(outcomes.filter((outcome) => outcome === 'raised')).toHaveLength(1);
    expect(await alertsWhere(ctx, { cause: alert.cause })).toHaveLength(1);
  });
});

describe('performance alert (D9.5: p95 over the last 5 minutes above 1 s)', async () => {
  const ctx = await createTestContext();

  it('says nothing while there are too few responses to judge, nor while p95 is at most 1 s', async () => {
    for (let i = 0; i < 19; i += 1) ctx.monitor.recordResponse(3000);
    await ctx.monitor.flush();
    expect(await alertsWhere(ctx, { type: 'performance' })).toEqual([]);
    for (let i = 0; i < 400; i += 1) ctx.monitor.recordResponse(20);
    await ctx.monitor.flush();
    expect(await alertsWhere(ctx, { type: 'performance' })).toEqual([]);
  });

  it('raises one performance warning when p95 is above 1 s, and keeps it one', async () => {
    for (let i = 0; i < 100; i += 1) ctx.monitor.recordResponse(1500);
    await ctx.monitor.flush();
    await ctx.monitor.flush();
    const alerts = await alertsWhere(ctx, { type: 'performance' });
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ severity: 'warning', status: 'open', enterprise_id: null, cause: 'p95_response_time' });
    expect(alerts[0]?.message).toContain('1500 ms');
  });
});

describe('acceptance: refused sign-ins at the identity provider (D3, D9.5)', async () => {
  const ctx = await createTestContext();

  it('10 refused sign-ins for one account within 5 minutes raise one open authentication alert (not ten)', async () => {
    const user = await createUser(ctx, { role: 'assessor' });
    const admin = await createUser(ctx, { role: 'super_admin' });
    for (let i = 0; i < 10; i += 1) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/auth/v1/token?grant_type=password',
        headers: { apikey: ctx.secrets.anonKey, 'content-type': 'application/json' },
        payload: { email: user.email, password: `wrong password ${i}` },
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ error: 'invalid_grant' });
    }
    await ctx.monitor.flush();
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/admin/alerts?status=open',
      headers: bearer(await tokenFor(ctx, admin)),
    });
    expect(response.statusCode, response.body).toBe(200);
    const authentication = response.json().data.filter((alert: { type: string }) => alert.type === 'authentication');
    expect(authentication).toHaveLength(1);
    expect(authentication[0]).toMatchObject({ severity: 'warning', status: 'open', enterprise_id: user.enterpriseId });
    expect(authentication[0].message).toContain(user.email);
  });
});

describe('health checks that find the database unreachable raise the database alert (D9.5, D9.6)', async () => {
  const database = await freshDatabase();
  // The health ping fails as an unreachable server would, while the alert can still be written.
  const unreachable = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
  const ctx = await createTestContext({ database: { ...database, ping: () => Promise.reject(unreachable) } });

  it('GET /health answers 503 and one critical database alert is raised', async () => {
    for (let i = 0; i < 3; i += 1) expect((await ctx.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(503);
    await ctx.monitor.flush();
    const alerts = await alertsWhere(ctx, { type: 'database', cause: 'unreachable' });
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ severity: 'critical', status: 'open' });
  });
});
