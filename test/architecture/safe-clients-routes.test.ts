import type { RouteOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import {
  API,
  IF_MATCH_EXEMPT,
  creatingPosts,
  lacking,
  nameOf,
  singleResourceReads,
  versionedChanges,
  type DeclaredRoute,
} from './safe-clients-routes.js';

/**
 * Every route of the API holds to the safe-client rules by declaration (route config): a single-resource
 * GET answers an ETag (`etag`), a change of one resource takes If-Match (`ifMatch`), a creating POST or
 * a bulk change takes an Idempotency-Key (`idempotent`). A new route without its line fails here.
 */
describe('safe clients: every route declares its conditional and idempotent behaviour', async () => {
  const routes: DeclaredRoute[] = [];
  const ctx = await createTestContext({
    onRoute: (route: RouteOptions) => {
      if (!route.url.startsWith(`${API}/`)) return;
      for (const method of [route.method].flat()) if (method !== 'HEAD') routes.push({ method, url: route.url, route });
    },
  });
  const openapi = (await ctx.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  const operation = ({ method, url }: DeclaredRoute) =>
    openapi.paths[url.replace(/:([a-z_]+)/g, '{$1}')]?.[method.toLowerCase()] as
      | { parameters?: { in: string; name: string }[]; responses: Record<string, { headers?: Record<string, unknown> }> }
      | undefined;
  const headerParameters = (route: DeclaredRoute) =>
    (operation(route)?.parameters ?? []).filter((parameter) => parameter.in === 'header').map((parameter) => parameter.name.toLowerCase());

  it('the classification sees the routes it is about (the control for the checks below)', () => {
    expect(singleResourceReads(routes).map(nameOf)).toContain(`GET ${API}/bras/:bra_id`);
    expect(versionedChanges(routes).map(nameOf)).toEqual(
      expect.arrayContaining([`PATCH ${API}/bras/:bra_id`, `POST ${API}/bras/:bra_id/approve`, `POST ${API}/mitigation-actions/:action_id/archive`]),
    );
    expect(creatingPosts(routes).map(nameOf)).toEqual(expect.arrayContaining([`POST ${API}/bras`, `POST ${API}/mitigation-actions/bulk-update`]));
    for (const exempt of IF_MATCH_EXEMPT.keys()) expect(routes.map(nameOf)).toContain(exempt);
  });

  it('every single-resource GET declares etag; list answers do not', () => {
    expect(lacking(singleResourceReads(routes), 'etag')).toEqual([]);
    const lists = routes.filter((route) => route.method === 'GET' && !singleResourceReads(routes).includes(route));
    expect(lists.filter(({ route }) => route.config?.etag === true).map(nameOf)).toEqual([]);
  });

  it('every PATCH, DELETE and state action declares ifMatch, but for the commented exemptions', () => {
    expect(lacking(versionedChanges(routes), 'ifMatch')).toEqual([]);
  });

  it('every creating POST and bulk change declares idempotent', () => {
    expect(lacking(creatingPosts(routes), 'idempotent')).toEqual([]);
  });

  it('the OpenAPI document shows the headers and answers of each', () => {
    for (const route of singleResourceReads(routes)) {
      expect(headerParameters(route), nameOf(route)).toContain('if-none-match');
      expect(Object.keys(operation(route)!.responses), nameOf(route)).toContain('304');
      expect(Object.keys(operation(route)!.responses['200']!.headers ?? {}), nameOf(route)).toContain('etag');
    }
    for (const route of versionedChanges(routes)) {
      expect(headerParameters(route), nameOf(route)).toContain('if-match');
      expect(Object.keys(operation(route)!.responses), nameOf(route)).toEqual(expect.arrayContaining(['412', '428']));
    }
    for (const route of creatingPosts(routes)) {
      expect(headerParameters(route), nameOf(route)).toContain('idempotency-key');
      expect(Object.keys(operation(route)!.responses), nameOf(route)).toEqual(expect.arrayContaining(['409', '422']));
    }
  });
});
