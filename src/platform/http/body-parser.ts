import type { FastifyInstance } from 'fastify';
import { AppError } from './errors.js';

export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Trims every string of a parsed body (D2.3), so that blank required strings fail validation. */
function trimStrings(value: unknown): unknown {
  if (typeof value === 'string') return value.trim();
  if (Array.isArray(value)) return value.map(trimStrings);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(value)) out[key] = trimStrings(member);
    return out;
  }
  return value;
}

/**
 * JSON bodies: malformed JSON or a non-object → 400, over 1 MiB → 413 (Fastify's bodyLimit), any other
 * content type → 415 (Fastify refuses content types without a parser). An empty body is "no body".
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser(
    /^application\/(.+\+)?json(;.*)?$/i,
    { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES },
    (request, body, done) => {
      const text = (body as string).trim();
      if (text === '') return done(null, undefined);
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return done(new AppError('BAD_REQUEST', 'Body is not valid JSON'), undefined);
      }
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
        return done(new AppError('BAD_REQUEST', 'Body must be a JSON object'), undefined);
      }
      // D2.3's trimming is for the API; the identity provider takes passwords exactly as typed.
      return done(null, request.url.startsWith('/api/') ? trimStrings(parsed) : parsed);
    },
  );
}
