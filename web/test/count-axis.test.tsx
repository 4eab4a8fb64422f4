import { describe, expect, it } from 'vitest';
import { countTicks } from '../src/components/count-axis';

describe('count chart ticks', () => {
  it('are whole numbers at an even step from 0 up to at least the highest count', () => {
    expect(countTicks(0)).toEqual([0, 1]);
    expect(countTicks(3)).toEqual([0, 1, 2, 3]);
    expect(countTicks(4)).toEqual([0, 1, 2, 3, 4]);
    expect(countTicks(5)).toEqual([0, 2, 4, 6]);
    expect(countTicks(162)).toEqual([0, 41, 82, 123, 164]);
    for (let highest = 0; highest < 500; highest += 7) {
      const ticks = countTicks(highest);
      expect(ticks.every((tick) => Number.isInteger(tick))).toBe(true);
      expect(ticks.at(-1)!).toBeGreaterThanOrEqual(highest);
      expect(new Set(ticks.slice(1).map((tick, index) => tick - ticks[index]!)).size).toBe(1);
    }
  });
});
