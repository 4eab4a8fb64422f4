import type { RouteOptions } from 'fastify';

/**
 * Additions the platform makes to a route's schema for what it handles itself (conditional requests,
 * idempotency): a request header, success headers, error answers. Each builds new schema objects, so a
 * schema shared by several routes is never changed under another one. They are also the OpenAPI document.
 */
type Schema = Record<string, unknown>;

function schemaOf(route: RouteOptions): Schema {
  route.schema = { ...(route.schema ?? {}) };
  return route.schema as Schema;
}

export function addHeaderParameter(route: RouteOptions, name: string, schema: Schema): void {
  const routeSchema = schemaOf(route);
  const headers = (routeSchema['headers'] ?? { type: 'object', properties: {} }) as Schema;
  routeSchema['headers'] = {
    ...headers,
    type: 'object',
    properties: { ...((headers['properties'] as Schema | undefined) ?? {}), [name]: schema },
  };
}

/** Response headers of every 2xx answer the route declares. */
export function addSuccessHeaders(route: RouteOptions, headers: Record<string, Schema>): void {
  const routeSchema = schemaOf(route);
  const responses = { ...((routeSchema['response'] as Record<string, Schema> | undefined) ?? {}) };
  for (const [status, schema] of Object.entries(responses)) {
    if (!/^2\d\d$/.test(status)) continue;
    responses[status] = { ...schema, headers: { ...((schema['headers'] as Schema | undefined) ?? {}), ...headers } };
  }
  routeSchema['response'] = responses;
}

/**
 * Answers the route may give besides its own. A status the route already declares keeps its schema, and
 * its description gains the new case (a 409 that is also IDEMPOTENCY_IN_PROGRESS).
 */
export function addResponses(route: RouteOptions, answers: Record<number, Schema>): void {
  const routeSchema = schemaOf(route);
  const responses = { ...((routeSchema['response'] as Record<string, Schema> | undefined) ?? {}) };
  for (const [status, schema] of Object.entries(answers)) {
    const existing = responses[status];
    responses[status] =
      existing === undefined ? schema : { ...existing, description: [existing['description'], schema['description']].filter(Boolean).join('; or ') };
  }
  routeSchema['response'] = responses;
}
