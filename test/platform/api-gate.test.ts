import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createMemoryRateLimitStore } from '../../src/platform/http/rate-limit/memory-store.js';
import { createTestContext } from '../support/app.js';
import { bearer, createUser, tokenFor } from '../support/factories.js';
import { rawRequest } from '../support/raw-http.js';

/** Every route as declared, with the Fastify instance (encapsulation context) it was declared on. */
interface DeclaredRoute {
  method: string;
  url: string;
  route: RouteOptions;
  scope: FastifyInstance;
}

/**
 * Collects the routes of an app and wraps each handler, so that a suite can tell whether any handler
 * ran: a 404 that ran no handler is as good as a 401, a 404 from a handler is not.
 */
function routeCollector() {
  const routes: DeclaredRoute[] = [];
  const ran: string[] = [];
  const onRoute = (route: RouteOptions, scope: FastifyInstance) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url, route, scope });
    const handler = route.handler;
    const name = `${[route.method].flat().join(',')} ${route.url}`;
    route.handler = function (this: FastifyInstance, request, reply) {
      ran.push(name);
      return handler.call(this, request, reply);
    };
  };
  return { routes, ran, onRoute };
}

/** A scope is inside the gate when it is the gate plugin's instance or one of its children. */
const insideGate = (gate: FastifyInstance, scope: FastifyInstance) => scope === gate || Object.prototype.isPrototypeOf.call(gate, scope);

/** The routes neither inside the /api/v1 gate nor explicitly public: each is a hole in the gate. */
function routesOutsideTheGate(routes: readonly DeclaredRoute[], gate: FastifyInstance): string[] {
  return routes
    .filter(({ route, scope }) => !insideGate(gate, scope) && route.config?.public !== true)
    .map(({ method, url }) => `${method} ${url}`);
}

/**
 * The only public routes (STYLE: "public routes are few and named"): health, the documents, the provider,
 * SCIM (behind its own gate of per-enterprise tokens, scim-gate.routes.ts), the one-click unsubscribe of notification mail (its signed link), and the console (its page at the root, its built assets under /assets/).
 */
const PUBLIC_ROUTE = /^(\/|\/assets\/[^/]+|\/health|\/docs(\/.*)?|\/api\/v1\/openapi\.json|\/api\/v1\/notifications\/unsubscribe|\/auth\/v1\/.+|\/scim\/v2\/.+)$/;

describe('one gate for /api/v1: it follows the matched route, never the spelling of the URL (D4, D8)', async () => {
  const collector = routeCollector();
  let gate: FastifyInstance | undefined;
  const ctx = await createTestContext({
    onRoute: collector.onRoute,
    extendApi: (api) => {
      gate = api;
      // A probe inside the gate with a side effect of its own, as any module route.
      api.post('/probe/spy', { schema: { operationId: 'probe.spy' } }, async () => ({ data: 'spied' }));
    },
  });
  const admin = await createUser(ctx, { role: 'admin' });
  const token = await tokenFor(ctx, admin);
  let port = 0;
  beforeAll(async () => {
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    port = (ctx.app.server.address() as AddressInfo).port;
  });
  beforeEach(() => {
    collector.ran.length = 0;
  });

  it('the collector sees the handlers run (the control for the suites below)', async () => {
    const response = await rawRequest(port, 'GET', '/api/v1/me', bearer(token));
    expect(response.status, response.body).toBe(200);
    expect(collector.ran).toEqual(['GET /api/v1/me']);
    const spy = await rawRequest(port, 'POST', '/api/v1/probe/spy', bearer(token), '{}');
    expect(spy.status, spy.body).toBe(200);
    expect(collector.ran).toEqual(['GET /api/v1/me', 'POST /api/v1/probe/spy']);
  });

  const VARIANTS: Array<[string, string]> = [
    ['GET', '/%61pi/v1/me'],
    ['GET', '/api/v1/%6De'],
    ['GET', '/api/%761/me'],
    ['GET', '/api%2Fv1%2Fme'],
    ['GET', '//api/v1/me'],
    ['GET', '/api//v1/me'],
    ['GET', '/api/v1//me'],
    ['GET', '/api/v1/../api/v1/me'],
    ['GET', '/x/../api/v1/me'],
    ['GET', '/api/v1/./me'],
    ['GET', '/./api/v1/me'],
    ['GET', '/api/v1/%2e/me'],
    ['GET', '/api/v1/%2e%2e/v1/me'],
    ['GET', '/api/v1/me/'],
    ['GET', '/api/v1/me//'],
    ['GET', '/API/v1/me'],
    ['GET', '/api/V1/me'],
    ['GET', '/Api/V1/Me'],
    ['GET', '/api/v1/ME'],
    ['GET', '/api/v1/me;x=1'],
    ['GET', '/api/v1/me?'],
    ['GET', '/%61pi/v1/admin/enterprises'],
    ['GET', '/api/v1/admin/enterprises/'],
    ['GET', '/API/v1/admin/enterprises'],
    ['POST', '/api/v1/probe/spy'],
    ['POST', '/api/v1/probe/%73py'],
    ['POST', '/%61pi/v1/probe/spy'],
    ['POST', '//api/v1/probe/spy'],
    ['POST', '/api/v1/../api/v1/probe/spy'],
    ['POST', '/api/v1/./probe/spy'],
    ['POST', '/api/v1/probe/spy/'],
    ['POST', '/API/v1/probe/spy'],
    ['POST', '/api/V1/probe/SPY'],
    ['POST', '/%61pi/v1/admin/legal-entities'],
  ];

  it.each(VARIANTS)('%s %s without a token: 401 from the gate, or a 404 that ran no handler', async (method, path) => {
    const response = await rawRequest(port, method, path, {}, method === 'POST' ? JSON.stringify({ name: 'Never created' }) : undefined);
    expect([401, 404], `${method} ${path} answered ${response.status}: ${response.body}`).toContain(response.status);
    expect(JSON.parse(response.body).code).toBe(response.status === 401 ? 'UNAUTHORIZED' : 'NOT_FOUND');
    expect(collector.ran, `${method} ${path} reached a handler`).toEqual([]);
  });

  it.each(VARIANTS)('%s %s with an invalid token: 401 or 404, and no handler ran', async (method, path) => {
    const response = await rawRequest(port, method, path, bearer(`${token.slice(0, -4)}AAAA`), method === 'POST' ? '{}' : undefined);
    expect([401, 404], `${method} ${path} answered ${response.status}: ${response.body}`).toContain(response.status);
    expect(collector.ran, `${method} ${path} reached a handler`).toEqual([]);
  });

  it('nothing was created through a variant spelling', async () => {
    const entities = await ctx.db.selectFrom('legal_entities').select('id').where('name', '=', 'Never created').execute();
    expect(entities).toEqual([]);
  });

  it('a variant the router matches to a protected route runs the gate: with a valid token it answers as the route does', async () => {
    const response = await rawRequest(port, 'GET', '/%61pi/v1/me', bearer(token));
    expect(response.status, response.body).toBe(200);
    expect(JSON.parse(response.body).data.user_id).toBe(admin.id);
  });

  it('invalid tokens sent to a variant spelling are counted as authentication failures (D9.5)', async () => {
    for (let i = 0; i < 10; i += 1) {
      const response = await rawRequest(port, 'GET', '/%61pi/v1/me', bearer('not.a.token'), undefined, '127.0.0.9');
      expect(response.status).toBe(401);
    }
    await ctx.monitor.flush();
    const alerts = await ctx.db.selectFrom('system_alerts').selectAll().where('cause', '=', 'address:127.0.0.9').execute();
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ type: 'authentication', status: 'open' });
  });

  it('a token in the query string is 400 on any spelling, and the request is counted against the caller (D4.2, D8)', async () => {
    const other = await createUser(ctx, { role: 'admin' });
    const headers = bearer(await tokenFor(ctx, other));
    const remaining = (response: { headers: Record<string, string> }) => Number(response.headers['x-ratelimit-remaining']);
    const first = await rawRequest(port, 'GET', '/api/v1/me', headers);
    expect(first.status).toBe(200);
    const seen = [remaining(first)];
    for (const path of ['/api/v1/me?access_token=abc', '/%61pi/v1/me?token=abc', '/api/v1/%6De?jwt=abc']) {
      const response = await rawRequest(port, 'GET', path, headers);
      expect(response.status, `${path}: ${response.body}`).toBe(400);
      expect(JSON.parse(response.body).code).toBe('BAD_REQUEST');
      seen.push(remaining(response));
    }
    const last = await rawRequest(port, 'GET', '/api/v1/me', headers);
    seen.push(remaining(last));
    // Each refused request used one request of the caller's budget.
    expect(seen).toEqual([0, 1, 2, 3, 4].map((used) => seen[0]! - used));
    expect(collector.ran.filter((name) => name.includes('/api/v1/me'))).toHaveLength(2);
  });

  it('every route is inside the gate or explicitly public, and the public ones are the named few', () => {
    expect(gate).toBeDefined();
    expect(collector.routes.length).toBeGreaterThan(20);
    expect(routesOutsideTheGate(collector.routes, gate!)).toEqual([]);
    const publicRoutes = collector.routes.filter(({ scope }) => !insideGate(gate!, scope));
    for (const { method, url } of publicRoutes) expect(url, `${method} ${url} is public`).toMatch(PUBLIC_ROUTE);
    // And nothing inside the gate calls itself public: the gate would not honour it anyway.
    const gatedPublic = collector.routes.filter(({ route, scope }) => insideGate(gate!, scope) && route.config?.public === true);
    expect(gatedPublic.map(({ method, url }) => `${method} ${url}`)).toEqual([]);
  });

  it('every route inside the gate refuses a request without a token (401) before its handler', async () => {
    const gated = collector.routes.filter(({ scope }) => insideGate(gate!, scope));
    expect(gated.length).toBeGreaterThan(10);
    for (const { method, url } of gated) {
      const path = url.replace(/:[a-z_]+/g, randomUUID()).replace(/\*$/, 'x');
      const response = await ctx.app.inject({ method: method as 'GET', url: path, payload: method === 'GET' || method === 'HEAD' ? undefined : {} });
      expect(response.statusCode, `${method} ${url}`).toBe(401);
    }
    expect(collector.ran).toEqual([]);
  });

  it('the check finds a route declared outside the gate (app.get("/api/v1/x") at the root)', async () => {
    const rogue = routeCollector();
    let rogueGate: FastifyInstance | undefined;
    const rateLimitStore = createMemoryRateLimitStore();
    const app = await buildApp({
      config: ctx.config,
      database: ctx.database,
      secrets: ctx.secrets,
      monitor: ctx.monitor,
      rateLimitStore,
      logger: false,
      onRoute: rogue.onRoute,
      extendApi: (api) => {
        rogueGate = api;
      },
      extend: (root) => {
        root.get('/api/v1/x', async () => ({ data: 'outside the gate' }));
      },
    });
    try {
      expect(routesOutsideTheGate(rogue.routes, rogueGate!)).toEqual(['GET /api/v1/x', 'HEAD /api/v1/x']);
      // And it is a real hole: the handler runs without any token.
      const response = await app.inject({ method: 'GET', url: '/api/v1/x' });
      expect(response.statusCode).toBe(200);
      expect(rogue.ran).toEqual(['GET /api/v1/x']);
    } finally {
      await app.close();
      await rateLimitStore.close();
    }
  });
});
