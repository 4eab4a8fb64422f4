import { describe, expect, it } from 'vitest';
import { aboveAppetiteSql, braPlace, exceedsAppetite } from './appetite-rules.js';

describe('the appetite rules (D6.9, 2.5)', () => {
  it('a risk exceeds the appetite only when its score is strictly above the threshold', () => {
    expect(exceedsAppetite(9, 9)).toBe(false);
    expect(exceedsAppetite(10, 9)).toBe(true);
    expect(exceedsAppetite(1, 25)).toBe(false);
  });

  it('refuses a column name that is not one (the names are written into the SQL)', () => {
    expect(() => braPlace('b; drop table bras')).toThrow('Not a column');
    expect(() => aboveAppetiteSql('r.risk_score or true', 'ap.threshold_value')).toThrow('Not a column');
  });
});
