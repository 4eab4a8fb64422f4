import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors/app-error.js';
import { representationState, stateTag, versionState } from '../../versions/resource-state.js';
import { bodyTag, noneMatchHits, parseTagList, strongMatch } from './entity-tags.js';
import { ifMatchExpectation } from './if-match.js';

const refusal = (run: () => void): AppError | null => {
  try {
    run();
    return null;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
};

describe('entity tags (RFC 9110 8.8.3, 13.1.1, 13.1.2)', () => {
  it('a state is written as its version, with the digest of its representation where it has one', () => {
    expect(stateTag(versionState(8))).toBe('"8"');
    const state = representationState(7, { name: 'A' });
    expect(stateTag(state)).toMatch(/^"7\.[A-Za-z0-9_-]{22}"$/);
    expect(representationState(7, { name: 'A' })).toEqual(state);
    expect(representationState(7, { name: 'B' })).not.toEqual(state);
    expect(bodyTag('x')).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
  });

  it('parses lists and *, keeping each tag as written so that weak ones stay weak', () => {
    expect(parseTagList(undefined)).toBeNull();
    expect(parseTagList(' * ')).toBe('*');
    expect(parseTagList('"7", W/"8.abc" ,"9.x"')).toEqual(['"7"', 'W/"8.abc"', '"9.x"']);
    expect(parseTagList('no quotes')).toEqual([]);
  });

  it('If-Match compares strongly: the whole tag, never a weak one', () => {
    expect(strongMatch('"7.abc"', '"7.abc"')).toBe(true);
    expect(strongMatch('W/"7.abc"', '"7.abc"')).toBe(false);
    expect(strongMatch('"7"', '"7.abc"')).toBe(false);
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

describe('If-Match as the expectation of a change (RFC 9110 13.1.1)', () => {
  const current = representationState(7, { name: 'A' });

  it('passes on the current tag, one of a list, or *; needs the state only for named tags', () => {
    const named = ifMatchExpectation(`"6", ${stateTag(current)}`, false)!;
    expect(named.needsState).toBe(true);
    expect(refusal(() => named.check(current))).toBeNull();
    const any = ifMatchExpectation('*', false)!;
    expect(any.needsState).toBe(false);
    expect(refusal(() => any.check(null))).toBeNull();
    expect(ifMatchExpectation(undefined, false)).toBeNull();
  });

  it('refuses another version, the same version with another representation, and a weak tag: 412 naming the current tag', () => {
    for (const header of ['"6"', '"7"', `"7.${'x'.repeat(22)}"`, `W/${stateTag(current)}`]) {
      const error = refusal(() => ifMatchExpectation(header, false)!.check(current));
      expect(error?.code, header).toBe('PRECONDITION_FAILED');
      expect(error?.details).toEqual({ current_etag: stateTag(current) });
    }
  });

  it('without If-Match where it is required: 428 on a change, nothing on a creation', () => {
    const missing = ifMatchExpectation(undefined, true)!;
    expect(refusal(() => missing.check(current))?.code).toBe('PRECONDITION_REQUIRED');
    expect(refusal(() => missing.checkAbsent())).toBeNull();
  });

  it('naming a state (or *) for what does not exist yet: 412 with no current tag', () => {
    for (const header of ['"3"', '*']) {
      const error = refusal(() => ifMatchExpectation(header, false)!.checkAbsent());
      expect(error?.code).toBe('PRECONDITION_FAILED');
      expect(error?.details).toEqual({ current_etag: null });
    }
  });
});
