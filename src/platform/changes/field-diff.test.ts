import { describe, expect, it } from 'vitest';
import { diffFields, fromTo, isEmptyDiff } from './field-diff.js';

describe('diffFields (what an update writes and its audit entry records)', () => {
  it('lists only fields whose value differs, with before and after', () => {
    const current: { tod: string; toe: string | null; tested_by: string | null } = { tod: 'A', toe: null, tested_by: 'Ann' };
    const diff = diffFields(current, { tod: 'A', toe: '2', tested_by: null });
    expect(diff).toEqual({ set: { toe: '2', tested_by: null }, previous: { toe: null, tested_by: 'Ann' } });
    expect(fromTo(diff)).toEqual({ toe: { from: null, to: '2' }, tested_by: { from: 'Ann', to: null } });
  });

  it('ignores fields that are not given and is empty when nothing changes', () => {
    expect(isEmptyDiff(diffFields({ name: 'x', description: null }, { name: 'x', description: undefined }))).toBe(true);
    expect(fromTo(diffFields({ name: 'x' }, {}))).toEqual({});
  });

  it('compares lists by content and dates by instant, as a client sees them', () => {
    const current = { event_types: ['bra.approved', 'bra.created'], due: new Date('2026-01-01T00:00:00Z') };
    expect(isEmptyDiff(diffFields(current, { event_types: ['bra.approved', 'bra.created'], due: new Date('2026-01-01T00:00:00Z') }))).toBe(true);
    expect(diffFields(current, { event_types: ['bra.approved'] }).set).toEqual({ event_types: ['bra.approved'] });
  });
});
