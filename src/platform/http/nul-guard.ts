import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors/app-error.js';
import { refusedStringField } from './body-strings.js';

/**
 * PostgreSQL refuses the NUL character in text and jsonb (22021, 22P05): a NUL that reached a query
 * would be a 500 and a critical alert. It is refused at the edge instead, wherever it hides: in a body
 * string or member name (422 on /api/v1, 400 on /auth/v1 through the provider's error mapping) and in
 * the path or query string (400: a malformed parameter, D2.2).
 */

const NUL = '\u0000';

/** The path of the first string (value or member name) holding a NUL, or null. */
export const nulField = (value: unknown): string | null =>
  refusedStringField(value, (text) => text.includes(NUL), (path) => path.replaceAll(NUL, '\\u0000'));

export function nulBodyError(field: string): AppError {
  return new AppError('VALIDATION_ERROR', `Request body failed validation: ${field} must not contain the NUL character`, {
    fields: [{ field, message: 'must not contain the NUL character (\\u0000)' }],
  });
}

/** `%00` in the URL decodes to NUL in a path or query parameter. A callback hook: every request runs it. */
export function registerNulUrlGuard(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.url.includes('%00') || request.url.includes(NUL)) {
      done(new AppError('BAD_REQUEST', 'The path and query string must not contain the NUL character (%00)'));
      return;
    }
    done();
  });
}
