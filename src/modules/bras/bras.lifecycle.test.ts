import { describe, expect, it } from 'vitest';
import {
  APPROVED,
  BRA_MOVES,
  BRA_STATUSES,
  COMMENTABLE,
  EDITABLE,
  hasStatus,
  LIVE,
  NOT_CANCELLED,
  OPENING_STATUS,
  braStatusSql,
  requireMove,
} from './bras.lifecycle.js';

describe('the BRA lifecycle (3.1, D6.7)', () => {
  it('a BRA opens as a draft; approved and cancelled are final: no move starts from them', () => {
    expect(OPENING_STATUS).toBe('draft');
    const starts = Object.values(BRA_MOVES).flatMap((move) => move.from);
    expect(starts).not.toContain('approved');
    expect(starts).not.toContain('cancelled');
  });

  it('the moves of 3.1: approve from in_progress or under_review, cancel from any live state, and the review loop', () => {
    expect(BRA_MOVES.approve).toMatchObject({ from: ['in_progress', 'under_review'], to: 'approved' });
    expect(BRA_MOVES.cancel).toMatchObject({ from: LIVE, to: 'cancelled' });
    expect(BRA_MOVES.submit).toMatchObject({ from: ['in_progress'], to: 'under_review' });
    expect(BRA_MOVES.return).toMatchObject({ from: ['under_review'], to: 'in_progress' });
    expect(BRA_MOVES.start).toMatchObject({ from: ['draft'], to: 'in_progress' });
  });

  it('the named sets: editable draft and in_progress (3.1 rule 1), commentable in review, live until approved or cancelled', () => {
    expect(EDITABLE).toEqual(['draft', 'in_progress']);
    expect(COMMENTABLE).toEqual(['in_progress', 'under_review']);
    expect(LIVE).toEqual(['draft', 'in_progress', 'under_review']);
    expect(APPROVED).toEqual(['approved']);
    expect(NOT_CANCELLED).toEqual(BRA_STATUSES.filter((status) => status !== 'cancelled'));
    for (const set of [EDITABLE, COMMENTABLE, LIVE, APPROVED, NOT_CANCELLED]) expect(BRA_STATUSES).toEqual(expect.arrayContaining([...set]));
    expect(hasStatus({ status: 'under_review' }, EDITABLE)).toBe(false);
    expect(hasStatus({ status: 'in_progress' }, EDITABLE)).toBe(true);
  });

  it('a move from a status it does not start from is 409 INVALID_STATE, naming both', () => {
    expect(() => requireMove({ status: 'draft' }, 'approve')).toThrow(
      expect.objectContaining({ code: 'INVALID_STATE', message: 'A BRA that is draft cannot be approved; it must be in_progress or under_review' }),
    );
    expect(() => requireMove({ status: 'approved' }, 'cancel')).toThrow(expect.objectContaining({ code: 'INVALID_STATE' }));
    expect(() => requireMove({ status: 'under_review' }, 'return')).not.toThrow();
  });

  it('its SQL names a table alias only (the alias is written into the statement; test/bras/bras-lifecycle-sql.test.ts runs the SQL)', () => {
    expect(() => braStatusSql(LIVE, 'b or true')).toThrow('Not a table alias');
  });
});
