import { Writable } from 'node:stream';
import { sql } from 'kysely';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp, type AppDeps } from '../../src/app.js';
import { loggerOptions } from '../../src/platform/http/logging.js';
import { createMemoryRateLimitStore } from '../../src/platform/http/rate-limit/memory-store.js';
import { createTestContext } from '../support/app.js';
import { auditEntries } from '../support/audit.js';
import { bearer, createEnterprise, createUser, tokenFor } from '../support/factories.js';

/** Dotted, lower-case words: `bras.approve`, `controls.sub_control.update`. */
const DOTTED = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;

const operationIdOf = (route: RouteOptions) => (route.schema as { operationId?: unknown } | undefined)?.operationId;

/**
 * STYLE: the operationId in a route's schema is the operation's only name; logs, alerts and audit entries
 * read it from the matched route. These tests fail when any of them writes a name of its own.
 */
describe('operation names: one per route, from its schema, the same in audit, logs and alerts', async () => {
  const ctx = await createTestContext();
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter((line) => line !== ''));
      done();
    },
  });
  const routes: RouteOptions[] = [];
  const rateLimitStore = createMemoryRateLimitStore();
  const app = await buildApp({
    config: ctx.config,
    database: ctx.database,
    secrets: ctx.secrets,
    monitor: ctx.monitor,
    rateLimitStore,
    logger: { ...(loggerOptions('info') as object), stream } as AppDeps['logger'],
    onRoute: (route) => {
      routes.push(route);
    },
  });
  afterAll(async () => {
    await app.close();
    await rateLimitStore.close();
  });
  beforeEach(() => {
    lines.length = 0;
  });

  /** The operationId the route declares: what every other place must repeat exactly. */
  function declared(method: string, url: string): string {
    const route = routes.find((r) => [r.method].flat().includes(method as never) && r.url === url);
    expect(route, `${method} ${url} is a route`).toBeDefined();
    const operation = operationIdOf(route!);
    expect(operation).toEqual(expect.any(String));
    return operation as string;
  }

  /** The `operation` on the request's log lines (incoming request, and the error line of a 500). */
  function loggedOperations(requestId: string): unknown[] {
    return lines
      .map((line) => JSON.parse(line) as Record<string, any>)
      .filter((line) => line['reqId'] === requestId)
      .flatMap((line) => [line['req']?.['operation'], line['operation']])
      .filter((operation) => operation !== undefined);
  }

  const enterprise = await createEnterprise(ctx);
  const admin = await createUser(ctx, { role: 'admin', enterpriseId: enterprise.id });
  const assessor = await createUser(ctx, { role: 'assessor', enterpriseId: enterprise.id });
  const superAdmin = await createUser(ctx, { role: 'super_admin' });
  const adminHeaders = bearer(await tokenFor(ctx, admin));

  it('every route has a dotted operationId, and no two routes share one', () => {
    const named = routes.filter((route) => route.method !== 'HEAD');
    expect(named.length).toBeGreaterThan(20);
    const byName = new Map<string, string[]>();
    for (const route of named) {
      const operation = operationIdOf(route);
      expect(operation, `${String(route.method)} ${route.url} has no operationId`).toEqual(expect.stringMatching(DOTTED));
      const where = `${String(route.method)} ${route.url.replace(/\/$/, '')}`;
      const seen = byName.get(operation as string) ?? [];
      if (!seen.includes(where)) seen.push(where);
      byName.set(operation as string, seen);
    }
    const shared = [...byName].filter(([, where]) => where.length > 1);
    expect(shared).toEqual([]);
  });

  it('a create (legal_entities.create): the audit entry and the log line name the route operationId', async () => {
    const operation = declared('POST', '/api/v1/admin/legal-entities');
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/admin/legal-entities',
      headers: { ...adminHeaders, 'x-request-id': 'op-create' },
      payload: { name: 'Named Entity plc' },
    });
    expect(response.statusCode, response.body).toBe(201);
    const [entry] = await auditEntries(ctx, { entityId: response.json().data.id, action: 'create' });
    expect(entry!.action_details['operation']).toBe(operation);
    expect(loggedOperations('op-create')).toEqual([operation]);
  });

  it('an update (admin.enterprises.update): the audit entry and the log line name the route operationId', async () => {
    const operation = declared('PATCH', '/api/v1/admin/enterprises/:enterprise_id');
    const response = await app.inject({
      method: 'PATCH',
      url: `/api/v1/admin/enterprises/${enterprise.id}`,
      headers: { ...bearer(await tokenFor(ctx, superAdmin)), 'x-request-id': 'op-update' },
      payload: { subscription_tier: 'professional' },
    });
    expect(response.statusCode, response.body).toBe(200);
    const entries = await auditEntries(ctx, { entityId: enterprise.id, action: 'update' });
    expect(entries.at(-1)!.action_details['operation']).toBe(operation);
    expect(loggedOperations('op-update')).toEqual([operation]);
  });

  it('a provider call (the admin password set): the audit entry and the log line name the route operationId', async () => {
    const operation = declared('PUT', '/auth/v1/admin/users/:user_id');
    const response = await app.inject({
      method: 'PUT',
      url: `/auth/v1/admin/users/${assessor.id}`,
      headers: {
        apikey: ctx.secrets.serviceRoleKey,
        authorization: `Bearer ${ctx.secrets.serviceRoleKey}`,
        'x-request-id': 'op-provider',
      },
      payload: { password: 'a new password 123' },
    });
    expect(response.statusCode, response.body).toBe(200);
    const entries = await auditEntries(ctx, { entityId: assessor.id, action: 'update' });
    expect(entries.at(-1)!.action_details).toMatchObject({ operation, change: 'password_set' });
    expect(loggedOperations('op-provider')).toEqual([operation]);
  });

  it('an access_denied entry names the operation of the refused route', async () => {
    const operation = declared('POST', '/api/v1/risk-scenarios');
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/risk-scenarios',
      headers: { ...bearer(await tokenFor(ctx, assessor)), 'x-request-id': 'op-denied' },
      payload: { name: 'Not allowed', category: 'Internal Fraud' },
    });
    expect(response.statusCode, response.body).toBe(403);
    const denied = await auditEntries(ctx, { userId: assessor.id, action: 'access_denied' });
    expect(denied.at(-1)!.action_details['operation']).toBe(operation);
    expect(loggedOperations('op-denied')).toEqual([operation]);
  });

  it('a 500: the error log line and the system alert name the route operationId', async () => {
    const operation = declared('POST', '/api/v1/admin/legal-entities');
    // The table goes away under the running service (this file's own database), so the real route fails.
    await sql`alter table legal_entities rename to legal_entities_away`.execute(ctx.db);
    try {
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/admin/legal-entities',
        headers: { ...adminHeaders, 'x-request-id': 'op-crash' },
        payload: { name: 'Lost Entity plc' },
      });
      expect(response.statusCode, response.body).toBe(500);
    } finally {
      await sql`alter table legal_entities_away rename to legal_entities`.execute(ctx.db);
    }
    await ctx.monitor.flush();
    const alerts = await ctx.db.selectFrom('system_alerts').selectAll().where('type', '=', 'system').execute();
    expect(alerts.map((alert) => alert.cause)).toEqual([`${operation}:SQLSTATE 42P01`]);
    expect(loggedOperations('op-crash')).toEqual([operation, operation]);
  });
});
