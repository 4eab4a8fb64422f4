import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { requestIdFor } from './request-id.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const withHeader = (value: string | string[] | undefined) =>
  ({ headers: value === undefined ? {} : { 'x-request-id': value } }) as unknown as IncomingMessage;

describe('requestIdFor (D2.1)', () => {
  it.each(['a', 'abc-123', 'x'.repeat(128), 'with spaces inside', '~!@#$%^&*()_+{}|:"<>?`-=[]\\;\',./'])(
    'reuses %j: at most 128 printable characters (D2.1)',
    (id) => {
      expect(requestIdFor(withHeader(id))).toBe(id);
    },
  );

  it.each([
    ['absent', undefined],
    ['empty', ''],
    ['only spaces', '   '],
    ['129 characters', 'x'.repeat(129)],
    ['a control character', 'a\u0000b'],
    ['a tab', 'a\tb'],
    ['a newline', 'a\nb'],
    ['DEL', 'a\u007fb'],
    ['non-ASCII', 'r\u00e9sum\u00e9'],
    ['repeated headers', ['a', 'b']],
  ])('generates a UUID v4 when the header is %s (D2.1)', (_label, value) => {
    expect(requestIdFor(withHeader(value))).toMatch(UUID);
  });
});
