import type { FastifySchema, RouteOptions } from 'fastify';
import { API_PREFIX } from '../../src/platform/http/api-prefix.js';
import type { TestContextOptions } from '../support/app.js';

export interface RegisteredRoute {
  method: string;
  /** The path relative to /api/v1, as declared (`/bras/:bra_id`). */
  path: string;
  /** `METHOD /path`: the key of D5_ROUTE_ACCESS. */
  key: string;
  schema: FastifySchema;
  params: string[];
}

/**
 * Collects the routes the app registers under /api/v1 (HEAD routes Fastify adds to each GET left out): the
 * matrix and the fuzzer take their list from here, so a route added anywhere is covered.
 */
export function routeRecorder(): { routes: RegisteredRoute[]; onRoute: NonNullable<TestContextOptions['onRoute']> } {
  const routes: RegisteredRoute[] = [];
  return {
    routes,
    onRoute(route: RouteOptions) {
      // Public routes (the OpenAPI document) hold no tenant's data; probes are the platform suites' own.
      if (!route.url.startsWith(`${API_PREFIX}/`) || route.url.startsWith(`${API_PREFIX}/probe`) || route.config?.public === true) return;
      for (const method of [route.method].flat()) {
        if (method === 'HEAD') continue;
        const path = route.url.slice(API_PREFIX.length);
        routes.push({
          method,
          path,
          key: `${method} ${path}`,
          schema: route.schema ?? {},
          params: [...path.matchAll(/:([a-z_]+)/g)].map((match) => match[1]!),
        });
      }
    },
  };
}
