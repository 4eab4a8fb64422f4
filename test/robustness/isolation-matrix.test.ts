import { describe, expect, it } from 'vitest';
import { API_PREFIX } from '../../src/platform/http/api-prefix.js';
import { createTestContext } from '../support/app.js';
import { signingKeyEnv } from '../support/governance-factories.js';
import { D5_ROUTE_ACCESS, type RouteAccess } from './d5-access.js';
import { createMatrixWorld, type IdsByName } from './matrix-world.js';
import { routeRecorder, type RegisteredRoute } from './route-table.js';
import { sampleObject } from './sample-input.js';

type Role = 'super_admin' | 'admin' | 'assessor' | 'reviewer';
type Target = 'foreign' | 'unassigned';
const ROLES: Role[] = ['super_admin', 'admin', 'assessor', 'reviewer'];
const TARGETS: Target[] = ['foreign', 'unassigned'];

/** D5: super admins administer the platform: every /admin route for any enterprise, /me, nothing else. */
function superAdminMay(route: RegisteredRoute): boolean {
  return route.path.startsWith('/admin/') || route.path === '/me';
}

/** Whether D5 lets `role` get a 2xx from `route` when it names the target's ids. */
function permitted(route: RegisteredRoute, access: RouteAccess, role: Role, target: Target): boolean {
  if (role === 'super_admin') return superAdminMay(route);
  const level = access[role];
  if (level === 'none' || target === 'foreign') return false;
  return level === 'enterprise';
}

/** A list (a GET without path ids) names ids only as filters: it may answer, but only with what the caller may see. */
const isList = (route: RegisteredRoute) => route.method === 'GET' && route.params.length === 0;

/** The audit trail quotes the paths callers asked for (their access_denied entries): ids there are no leak, names would be. */
const quotesRequests = (route: RegisteredRoute) => route.path.startsWith('/audit');

/** The request of a cell, and whether it names any id of the target (else it acts on the caller's own enterprise). */
function requestOf(route: RegisteredRoute, ids: IdsByName) {
  let namesTarget = route.params.length > 0;
  const source = (name: string) => {
    if (ids[name] !== undefined) namesTarget = true;
    return ids[name];
  };
  const url = `${API_PREFIX}${route.path.replace(/:([a-z_]+)/g, (_, name: string) => ids[name] ?? '00000000-0000-4000-8000-000000000000')}`;
  const query = route.schema.querystring !== undefined ? sampleObject(route.schema.querystring as Record<string, unknown>, source) : {};
  const payload = route.schema.body !== undefined ? sampleObject(route.schema.body as Record<string, unknown>, source) : undefined;
  const search = new URLSearchParams(Object.entries(query).map(([key, value]): [string, string] => [key, String(value)])).toString();
  return { url: search === '' ? url : `${url}?${search}`, payload, namesTarget };
}

/**
 * Tenant isolation and entity-assignment scope, proven over the registered route table rather than a list
 * someone keeps: every /api/v1 route × every role × the other enterprise's ids and the ids of an entity
 * the caller is not assigned to. A cell fails on a 2xx D5 forbids (d5-access.ts), and on any answer holding
 * the other tenant's records (or, where D5 says "assigned", the unassigned entity's).
 */
describe('isolation matrix over the registered routes (D5, D10.1)', async () => {
  const recorder = routeRecorder();
  const ctx = await createTestContext({ onRoute: recorder.onRoute, env: signingKeyEnv() });
  const world = await createMatrixWorld(ctx);
  const routes = recorder.routes;

  it('every registered route has its D5 row, and every row a route', () => {
    const keys = routes.map((route) => route.key);
    expect(keys.filter((key) => D5_ROUTE_ACCESS[key] === undefined), 'routes missing from d5-access.ts').toEqual([]);
    expect(Object.keys(D5_ROUTE_ACCESS).filter((key) => !keys.includes(key)), 'rows of d5-access.ts without a route').toEqual([]);
  });

  const cells: { route: RegisteredRoute; role: Role; target: Target }[] = routes.flatMap((route) =>
    ROLES.flatMap((role) => TARGETS.map((target) => ({ route, role, target }))),
  );

  it(`${cells.length} cells: no forbidden 2xx, no other tenant's data, no unassigned entity's data where D5 says assigned`, async () => {
    const failures: string[] = [];
    let executed = 0;
    for (const { route, role, target } of cells) {
      const access = D5_ROUTE_ACCESS[route.key];
      if (access === undefined) continue;
      const ids = target === 'foreign' ? world.foreignIds : world.unassignedIds;
      const { url, payload, namesTarget } = requestOf(route, ids);
      // A request naming nothing of the target acts on the caller's own enterprise (a create, a list).
      const ownMay = role === 'super_admin' ? superAdminMay(route) : access[role] !== 'none';
      const may = namesTarget && !isList(route) ? permitted(route, access, role, target) : ownMay;
      // Allowed changes are not made: the matrix proves refusals, and the world must stay as built.
      if (may && route.method !== 'GET') continue;
      // A refusal that names nothing of the target is the same request twice: once is enough.
      if (!namesTarget && target === 'unassigned' && !may) continue;
      const response = await ctx.app.inject({
        method: route.method as 'GET',
        url,
        headers: { authorization: `Bearer ${world.tokens[role]}` },
        ...(payload !== undefined ? { payload } : {}),
      });
      executed += 1;
      const cell = `${route.key} as ${role} on ${target} ids (${url})`;
      const success = response.statusCode >= 200 && response.statusCode < 300;
      if (success && !may) failures.push(`${cell}: ${response.statusCode} where D5 refuses`);
      if (response.statusCode >= 500) failures.push(`${cell}: ${response.statusCode} ${response.body.slice(0, 200)}`);
      const body = response.body;
      const foreignAllowed = role === 'super_admin' && route.path.startsWith('/admin/');
      if (!foreignAllowed) {
        const leaks = quotesRequests(route) ? world.foreignNames : world.foreignLeaks;
        const leaked = leaks.find((mark) => body.includes(mark));
        if (leaked !== undefined) failures.push(`${cell}: the answer holds the other enterprise's ${leaked}`);
      }
      if ((role === 'assessor' || role === 'reviewer') && access[role] === 'assigned') {
        const leaked = world.unassignedLeaks.find((mark) => body.includes(mark));
        if (leaked !== undefined) failures.push(`${cell}: the answer holds the unassigned entity's ${leaked}`);
      }
    }
    process.stdout.write(`isolation matrix: ${cells.length} cells, ${executed} requests sent\n`);
    expect(failures).toEqual([]);
    expect(executed).toBeGreaterThan(routes.length * 2);
  });
});
