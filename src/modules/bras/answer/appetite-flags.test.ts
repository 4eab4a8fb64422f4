import { describe, expect, it } from 'vitest';
import { aboveAppetite, appetiteBreaches, withAppetite } from './appetite-flags.js';

const scenario = (id: string, name: string, score: number | null, included = true) => ({
  id,
  risk_scenario_id: `rs-${id}`,
  name,
  included,
  residual_rating: score === null ? null : { risk_score: score },
});

describe('scenarios above appetite, by name', () => {
  it('a flag only for included scenarios with a residual rating; strictly above the threshold', () => {
    expect(aboveAppetite(scenario('a', 'A', 10), 9)).toBe(true);
    expect(aboveAppetite(scenario('a', 'A', 9), 9)).toBe(false);
    expect(aboveAppetite(scenario('a', 'A', null), 9)).toBeNull();
    expect(aboveAppetite(scenario('a', 'A', 20, false), 9)).toBeNull();
    expect(aboveAppetite(scenario('a', 'A', 20), null)).toBe(false);
  });

  it('lists the included breaches highest score first, ties by name then id', () => {
    const list = appetiteBreaches(
      [scenario('1', 'Fraud', 12), scenario('2', 'Cyber', 16), scenario('3', 'Bribery', 12), scenario('4', 'Excluded', 25, false), scenario('5', 'Low', 4), scenario('6', 'Unrated', null)],
      9,
    );
    expect(list).toEqual([
      { id: '2', risk_scenario_id: 'rs-2', name: 'Cyber', residual_score: 16, threshold: 9 },
      { id: '3', risk_scenario_id: 'rs-3', name: 'Bribery', residual_score: 12, threshold: 9 },
      { id: '1', risk_scenario_id: 'rs-1', name: 'Fraud', residual_score: 12, threshold: 9 },
    ]);
    expect(appetiteBreaches([scenario('1', 'Fraud', 12)], null)).toEqual([]);
  });

  it('flags every scenario and adds the list to the summary, whose count it matches', () => {
    const detail = withAppetite({ scenarios: [scenario('1', 'A', 12), scenario('2', 'B', 3)], summary: { risks_above_appetite: 1 } }, 9);
    expect(detail.scenarios.map((s) => [s.applicable_threshold, s.above_appetite])).toEqual([
      [9, true],
      [9, false],
    ]);
    expect(detail.summary.scenarios_above_appetite).toHaveLength(detail.summary.risks_above_appetite);
  });
});
