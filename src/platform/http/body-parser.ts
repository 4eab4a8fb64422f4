import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors/app-error.js';
import { nulBodyError, nulField } from './nul-guard.js';
import { storedText } from './stored-text.js';
import { unpairedSurrogateError, unpairedSurrogateField } from './unpaired-surrogates.js';

export const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * JSON.parse turns "__proto__" into an own key; the first copy by assignment (ours below, a service's
 * Object.assign) would make it the object's prototype, and a validator walking keys with for...in would
 * then check (and a service read) values the client never sent as members. Refused, as Fastify's own
 * parser does.
 */
function isPoisoned(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(isPoisoned);
  if (value === null || typeof value !== 'object') return false;
  for (const [key, member] of Object.entries(value)) {
    if (key === '__proto__') return true;
    if (key === 'constructor' && member !== null && typeof member === 'object' && Object.hasOwn(member, 'prototype')) {
      return true;
    }
    if (isPoisoned(member)) return true;
  }
  return false;
}

/**
 * Every string of a parsed body in its stored form (D2.3, `stored-text.ts`), before the schema is checked:
 * blank required strings fail validation, and maxLength bounds what is stored, not what was typed.
 */
function trimStrings(value: unknown): unknown {
  if (typeof value === 'string') return storedText(value);
  if (Array.isArray(value)) return value.map(trimStrings);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(value)) out[key] = trimStrings(member);
    return out;
  }
  return value;
}

/** JSON is UTF-8 (RFC 8259); a body declared in another charset would be read as something it is not. */
function isUtf8(contentType: string | undefined): boolean {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '')?.[1];
  return charset === undefined || /^utf-?8$/i.test(charset);
}

/**
 * RFC 8259: JSON text exchanged between systems is UTF-8. Bytes that are not (a lone continuation byte, an
 * overlong form, a truncated sequence) would be decoded to U+FFFD and stored as something the client never
 * sent; they are refused as a malformed body, as a body that is not JSON is (400 BAD_REQUEST).
 */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * JSON bodies: malformed JSON or bytes that are not UTF-8 or a non-object → 400, over 1 MiB → 413 (Fastify's bodyLimit), any other
 * content type or a charset other than UTF-8 → 415 (Fastify refuses content types without a parser). An empty body is "no body".
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser(
    /^application\/(.+\+)?json(;.*)?$/i,
    { parseAs: 'buffer', bodyLimit: BODY_LIMIT_BYTES },
    (request, body, done) => {
      if (!isUtf8(request.headers['content-type'])) {
        return done(new AppError('UNSUPPORTED_MEDIA_TYPE', 'JSON bodies must be UTF-8 (Content-Type: application/json; charset=utf-8)'), undefined);
      }
      let decoded: string;
      try {
        decoded = strictUtf8.decode(body as Buffer);
      } catch {
        return done(new AppError('BAD_REQUEST', 'Body is not valid UTF-8'), undefined);
      }
      const text = decoded.trim();
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
      try {
        if (isPoisoned(parsed)) {
          return done(new AppError('BAD_REQUEST', 'Body must not contain __proto__ or constructor.prototype'), undefined);
        }
        const nul = nulField(parsed);
        if (nul !== null) return done(nulBodyError(nul), undefined);
        const unpaired = unpairedSurrogateField(parsed);
        if (unpaired !== null) return done(unpairedSurrogateError(unpaired), undefined);
        // D2.3's trimming is for the API; the identity provider takes passwords exactly as typed.
        return done(null, request.url.startsWith('/api/') ? trimStrings(parsed) : parsed);
      } catch (error) {
        // Walking a body nested thousands of levels deep exhausts the stack: a malformed body, not a 500.
        if (error instanceof RangeError) return done(new AppError('BAD_REQUEST', 'Body is nested too deeply'), undefined);
        throw error;
      }
    },
  );
}
