import { describe, expect, it } from 'vitest';
import { completionPercentage, summarise } from './summary.js';

describe('BRA summary maths (D6.8)', () => {
  it('completion is round(100 × assessed / total), 0 when there are no included scenarios', () => {
    expect(completionPercentage(0, 0)).toBe(0);
    expect(completionPercentage(0, 3)).toBe(0);
    expect(completionPercentage(1, 3)).toBe(33);
    expect(completionPercentage(2, 3)).toBe(67);
    expect(completionPercentage(1, 8)).toBe(13); // 12.5 rounds half up
    expect(completionPercentage(3, 3)).toBe(100);
  });

  it('maps the counts onto the contract names', () => {
    expect(summarise({ included: 4, assessed: 2, above_appetite: 1 })).toEqual({
      total_scenarios: 4,
      assessed_scenarios: 2,
      risks_above_appetite: 1,
      completion_percentage: 50,
    });
  });
});
