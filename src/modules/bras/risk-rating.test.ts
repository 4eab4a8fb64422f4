import { describe, expect, it } from 'vitest';
import { RISK_BANDS, rateRisk, riskLevelOf } from './risk-rating.js';

describe('risk score and level (D6.1)', () => {
  it.each([
    [1, 'Low'],
    [4, 'Low'],
    [5, 'Medium'],
    [9, 'Medium'],
    [10, 'High'],
    [15, 'High'],
    [16, 'Very High'],
    [25, 'Very High'],
  ] as const)('score %i is %s (band edges 4/5, 9/10, 15/16)', (score, level) => {
    expect(riskLevelOf(score)).toBe(level);
  });

  it.each([
    [2, 2, 4, 'Low'],
    [5, 1, 5, 'Medium'],
    [3, 3, 9, 'Medium'],
    [2, 5, 10, 'High'],
    [5, 3, 15, 'High'],
    [4, 4, 16, 'Very High'],
    [5, 5, 25, 'Very High'],
    [1, 1, 1, 'Low'],
  ] as const)('impact %i × likelihood %i = %i (%s)', (impact, likelihood, score, level) => {
    expect(rateRisk(impact, likelihood)).toEqual({
      impact_score: impact,
      likelihood_score: likelihood,
      risk_score: score,
      risk_level: level,
    });
  });

  it('every product of two scores 1–5 falls in exactly one band', () => {
    for (let impact = 1; impact <= 5; impact += 1) {
      for (let likelihood = 1; likelihood <= 5; likelihood += 1) {
        const score = impact * likelihood;
        expect(RISK_BANDS.filter((b) => score >= b.min && score <= b.max)).toHaveLength(1);
      }
    }
  });

  it('refuses scores outside 1 to 5 and non-integers', () => {
    expect(() => rateRisk(0, 3)).toThrow(RangeError);
    expect(() => rateRisk(3, 6)).toThrow(RangeError);
    expect(() => rateRisk(2.5, 2)).toThrow(RangeError);
    expect(() => riskLevelOf(26)).toThrow(RangeError);
    expect(() => riskLevelOf(0)).toThrow(RangeError);
  });
});
