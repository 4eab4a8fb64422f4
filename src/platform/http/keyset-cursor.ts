import { createHash } from 'node:crypto';
import { AppError } from '../errors/app-error.js';

/**
 * Keyset ("seek") paging for a list ordered newest first (`created_at desc, id desc`): the cursor is the last
 * row's position, and the next page is the rows after it in that order, read from the index, however deep.
 * Pure: the repository reads the position as text (microseconds, which a JS Date would lose) and compares
 * `(created_at, id) < (at, id)`.
 */
export interface KeysetPosition {
  /** The row's created_at in UTC with microseconds: `2026-12-06T10:00:00.123456Z`. */
  at: string;
  id: string;
}

/** The longest cursor accepted (a position and a binding come to about 130 characters). */
export const MAX_CURSOR_LENGTH = 512;

const AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * What a cursor is bound to: the list, the caller's enterprise and the filters. A cursor used with another
 * list, another enterprise or other filters would seek a position in rows it was not taken from; it is
 * refused instead. Not a secret: the binding says only "same query", and the position itself is the
 * caller's own row.
 */
export function cursorBinding(list: string, enterpriseId: string, filters: Record<string, unknown>): string {
  const canonical = JSON.stringify([list, enterpriseId, Object.entries(filters).filter(([, value]) => value !== undefined).sort(([a], [b]) => (a < b ? -1 : 1))]);
  return createHash('sha256').update(canonical, 'utf8').digest('base64url').slice(0, 16);
}

/** The opaque cursor of the page after `position`. */
export function encodeCursor(position: KeysetPosition, binding: string): string {
  return Buffer.from(JSON.stringify({ at: position.at, id: position.id, b: binding }), 'utf8').toString('base64url');
}

/**
 * A real instant PostgreSQL takes: JavaScript rolls 2026-02-31 over to March and PostgreSQL refuses it (and
 * year 0), so the date must read back as written.
 */
function isInstant(at: string): boolean {
  if (!AT.test(at) || at.startsWith('0000')) return false;
  const millis = Date.parse(`${at.slice(0, 23)}Z`);
  return !Number.isNaN(millis) && new Date(millis).toISOString().slice(0, 23) === at.slice(0, 23);
}

/** A refused cursor: a malformed query parameter, in the shape of the query validation's 400 (D2.2). */
const badCursor = (message: string) => new AppError('BAD_REQUEST', 'Invalid querystring parameter', { fields: [{ field: 'cursor', message }] });

/** A cursor names a position in a sequence of pages: a list asked for whole (no limit) has none. */
export const cursorWithoutLimit = () => badCursor('is only valid with limit');

/** The position a cursor names, or 400 when it is not one this list gave for this enterprise and these filters. */
export function decodeCursor(cursor: string, binding: string): KeysetPosition {
  if (cursor.length > MAX_CURSOR_LENGTH || !BASE64URL.test(cursor)) throw badCursor('is not a cursor of this list');
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badCursor('is not a cursor of this list');
  }
  if (typeof decoded !== 'object' || decoded === null || Array.isArray(decoded)) throw badCursor('is not a cursor of this list');
  const { at, id, b } = decoded as Record<string, unknown>;
  if (typeof at !== 'string' || !isInstant(at) || typeof id !== 'string' || !UUID.test(id) || typeof b !== 'string') {
    throw badCursor('is not a cursor of this list');
  }
  if (b !== binding) throw badCursor('was given for other filters; start again without it');
  return { at, id };
}
