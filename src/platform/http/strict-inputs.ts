import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { API_PREFIX } from './api-prefix.js';
import { AppError } from '../errors/app-error.js';

type Guard = (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => void;

/**
 * Two rules that hold for every /api/v1 route, present and future, because they are attached here as each
 * route is declared rather than written into each schema:
 *
 * - A query parameter the route does not declare is refused (400 BAD_REQUEST naming it, D2.2: a malformed
 *   query). A misspelt filter (`?entity=` for `?entity_id=`) would otherwise be ignored and the answer
 *   widened to everything the caller may see.
 * - A route that declares no body takes none with members: an archive or a checkpoint sent `{"reason": …}`
 *   answers 422 like any body with an unknown field (D2.3). An empty object or no body at all is fine.
 */
export function registerStrictInputs(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(`${API_PREFIX}/`)) return;
    const guards: Guard[] = [refuseUnknownQueryParameters(declaredQueryParameters(route))];
    if (route.schema?.body === undefined) guards.push(refuseBodyMembers);
    const existing = route.preValidation === undefined ? [] : Array.isArray(route.preValidation) ? route.preValidation : [route.preValidation];
    route.preValidation = [...guards, ...existing] as RouteOptions['preValidation'];
  });
}

function declaredQueryParameters(route: RouteOptions): ReadonlySet<string> {
  const schema = route.schema?.querystring as { properties?: Record<string, unknown> } | undefined;
  return new Set(Object.keys(schema?.properties ?? {}));
}

function refuseUnknownQueryParameters(declared: ReadonlySet<string>): Guard {
  return (request, _reply, done) => {
    const unknown = Object.keys(request.query as Record<string, unknown>).filter((name) => !declared.has(name));
    if (unknown.length === 0) return done();
    const known = declared.size === 0 ? 'this endpoint takes no query parameters' : `known: ${[...declared].join(', ')}`;
    done(
      new AppError('BAD_REQUEST', `Unknown query parameter ${unknown.map((name) => `'${name}'`).join(', ')} (${known})`, {
        fields: unknown.map((field) => ({ field, message: 'is not a parameter of this endpoint' })),
      }),
    );
  };
}

const refuseBodyMembers: Guard = (request, _reply, done) => {
  const body = request.body;
  if (body === undefined || body === null || typeof body !== 'object') return done();
  const members = Object.keys(body);
  if (members.length === 0) return done();
  done(
    new AppError('VALIDATION_ERROR', 'Request body failed validation: this endpoint takes no body', {
      fields: members.map((field) => ({ field, message: 'is not allowed' })),
    }),
  );
};
