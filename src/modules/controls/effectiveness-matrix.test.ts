import { describe, expect, it } from 'vitest';
import { EFFECTIVENESS_MATRIX, TOD_LEVELS, TOE_LEVELS, totalEffectiveness } from './effectiveness-matrix.js';

// Interface 3.5, transcribed cell by cell: ToD row, ToE column, label.
const SPEC_CELLS = [
  ['A', '1', 'Highly Effective'], ['A', '2', 'Highly Effective'], ['A', '3', 'Effective'], ['A', '4', 'Moderately Effective'], ['A', '5', 'Less Effective'],
  ['B', '1', 'Highly Effective'], ['B', '2', 'Effective'], ['B', '3', 'Effective'], ['B', '4', 'Moderately Effective'], ['B', '5', 'Less Effective'],
  ['C', '1', 'Effective'], ['C', '2', 'Effective'], ['C', '3', 'Moderately Effective'], ['C', '4', 'Less Effective'], ['C', '5', 'Not Effective'],
  ['D', '1', 'Moderately Effective'], ['D', '2', 'Moderately Effective'], ['D', '3', 'Less Effective'], ['D', '4', 'Not Effective'], ['D', '5', 'Not Effective'],
  ['E', '1', 'Less Effective'], ['E', '2', 'Less Effective'], ['E', '3', 'Not Effective'], ['E', '4', 'Not Effective'], ['E', '5', 'Not Effective'],
] as const;

describe('total effectiveness matrix (3.5)', () => {
  it.each(SPEC_CELLS)('ToD %s with ToE %s is %s', (tod, toe, label) => {
    expect(totalEffectiveness(tod, toe)).toBe(label);
  });

  it('has exactly the 25 cells of 3.5, levels A–E by 1–5', () => {
    expect(TOD_LEVELS).toEqual(['A', 'B', 'C', 'D', 'E']);
    expect(TOE_LEVELS).toEqual(['1', '2', '3', '4', '5']);
    const cells = Object.entries(EFFECTIVENESS_MATRIX).flatMap(([tod, row]) => Object.entries(row).map(([toe, label]) => [tod, toe, label]));
    expect(cells).toEqual(SPEC_CELLS.map((cell) => [...cell]));
  });

  it('is null while ToD or ToE is unset (D7.1)', () => {
    expect(totalEffectiveness(null, '1')).toBeNull();
    expect(totalEffectiveness('A', null)).toBeNull();
    expect(totalEffectiveness(undefined, undefined)).toBeNull();
  });
});
