import { describe, expect, it } from 'vitest';
import { noneMatchHits, parseTagList, readTag, versionOfTag, versionTag } from './entity-tags.js';

describe('entity tags (RFC 9110 8.8.3, 13.1.1, 13.1.2)', () => {
  it('a read\'s tag is the version and the digest of the body; another body of the same version has another tag', () => {
    const tag = readTag(7, '{"data":{"name":"A"}}');
    expect(tag).toMatch(/^"7\.[A-Za-z0-9_-]{22}"$/);
    expect(readTag(7, '{"data":{"name":"A"}}')).toBe(tag);
    expect(readTag(7, '{"data":{"name":"B"}}')).not.toBe(tag);
    expect(readTag(null, 'x')).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect(versionTag(8)).toBe('"8"');
  });

  it('parses lists, *, and keeps weak tags marked', () => {
    expect(parseTagList(undefined)).toBeNull();
    expect(parseTagList(' * ')).toBe('*');
    expect(parseTagList('"7", W/"8.abc" ,"9.x"')).toEqual(['7', 'W/8.abc', '9.x']);
    expect(parseTagList('no quotes')).toEqual([]);
  });

  it('the version of a strong tag; none of a weak or foreign one', () => {
    expect(versionOfTag('7')).toBe(7);
    expect(versionOfTag('7.Zk3q-_')).toBe(7);
    expect(versionOfTag('W/7')).toBeNull();
    expect(versionOfTag('abc')).toBeNull();
    expect(versionOfTag('')).toBeNull();
  });

  it('If-None-Match compares weakly and knows *', () => {
    expect(noneMatchHits('"7.abc"', '"7.abc"')).toBe(true);
    expect(noneMatchHits('W/"7.abc"', '"7.abc"')).toBe(true);
    expect(noneMatchHits('"6.abc", "7.abc"', '"7.abc"')).toBe(true);
    expect(noneMatchHits('"7"', '"7.abc"')).toBe(false);
    expect(noneMatchHits('*', '"7.abc"')).toBe(true);
    expect(noneMatchHits(undefined, '"7.abc"')).toBe(false);
  });
});
