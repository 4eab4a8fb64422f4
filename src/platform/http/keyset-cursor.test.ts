import { describe, expect, it } from 'vitest';
import { AppError } from '../errors/app-error.js';
import { cursorBinding, decodeCursor, encodeCursor, MAX_CURSOR_LENGTH } from './keyset-cursor.js';

const position = { at: '2026-12-06T10:00:00.123456Z', id: '7d3a2b9c-5e4f-4a0b-9c8d-3e4f5a6b7c8d' };
const binding = cursorBinding('sub_controls', 'e1', { archived: false, q: 'pay' });
const refused = (cursor: string, against = binding) => {
  try {
    decodeCursor(cursor, against);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return { status: (error as AppError).status, details: (error as AppError).details };
  }
  return null;
};
const forged = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

describe('keyset cursors', () => {
  it('give back the position they were made from, for the same list, enterprise and filters', () => {
    expect(decodeCursor(encodeCursor(position, binding), binding)).toEqual(position);
    // The order of the filters and the absent ones do not matter.
    expect(cursorBinding('sub_controls', 'e1', { q: 'pay', archived: false, tod: undefined })).toBe(binding);
  });

  it('are bound to the list, the enterprise and the filters', () => {
    const cursor = encodeCursor(position, binding);
    for (const other of [cursorBinding('key_controls', 'e1', { archived: false, q: 'pay' }), cursorBinding('sub_controls', 'e2', { archived: false, q: 'pay' }), cursorBinding('sub_controls', 'e1', { archived: false, q: 'pa' })]) {
      expect(refused(cursor, other)).toEqual({ status: 400, details: { fields: [{ field: 'cursor', message: expect.stringMatching(/other filters/) }] } });
    }
  });

  it.each([
    ['not base64url', 'a b'],
    ['not JSON', Buffer.from('{', 'utf8').toString('base64url')],
    ['JSON, not an object', forged([1, 2])],
    ['null', forged(null)],
    ['no position', forged({ b: binding })],
    ['a date without microseconds', forged({ ...position, at: '2026-12-06T10:00:00.123Z', b: binding })],
    ['a day that does not exist', forged({ ...position, at: '2026-02-31T10:00:00.000000Z', b: binding })],
    ['year 0', forged({ ...position, at: '0000-01-01T00:00:00.000000Z', b: binding })],
    ['an id that is no UUID', forged({ ...position, id: "1' or '1'='1", b: binding })],
    ['too long', 'A'.repeat(MAX_CURSOR_LENGTH + 1)],
  ])('refuse %s with 400 naming the cursor', (_case, cursor) => {
    expect(refused(cursor)).toEqual({ status: 400, details: { fields: [{ field: 'cursor', message: expect.any(String) }] } });
  });
});
