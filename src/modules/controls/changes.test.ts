import { describe, expect, it } from 'vitest';
import { changedFields } from './changes.js';

describe('changedFields (what an update audit entry records)', () => {
  it('lists only fields whose value differs, with before and after', () => {
    const current: { tod: string; toe: string | null; tested_by: string | null } = { tod: 'A', toe: null, tested_by: 'Ann' };
    expect(changedFields(current, { tod: 'A', toe: '2', tested_by: null })).toEqual({
      toe: { from: null, to: '2' },
      tested_by: { from: 'Ann', to: null },
    });
  });

  it('ignores fields that are not given and answers {} when nothing changes', () => {
    expect(changedFields({ name: 'x', description: null }, { name: 'x', description: undefined })).toEqual({});
    expect(changedFields({ name: 'x' }, {})).toEqual({});
  });
});
