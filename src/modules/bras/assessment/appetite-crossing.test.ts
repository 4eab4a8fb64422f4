import { describe, expect, it } from 'vitest';
import { crossesAppetite } from './appetite-crossing.js';

describe('risk.above_appetite: once per scenario and crossing', () => {
  it('a first residual rating above the threshold is a crossing', () => {
    expect(crossesAppetite(null, 12, 9)).toBe(true);
  });
  it('going from at or below the threshold to above it is a crossing', () => {
    expect(crossesAppetite(9, 10, 9)).toBe(true);
    expect(crossesAppetite(4, 25, 9)).toBe(true);
  });
  it('staying above is not a new crossing', () => {
    expect(crossesAppetite(12, 16, 9)).toBe(false);
  });
  it('a score equal to the threshold is within appetite (2.5)', () => {
    expect(crossesAppetite(null, 9, 9)).toBe(false);
    expect(crossesAppetite(12, 6, 9)).toBe(false);
  });
});
