import { describe, expect, it } from 'vitest';
import { controlsByScenario, weakestEffectiveness } from './scenario-controls.js';

describe('a scenario’s control effectiveness', () => {
  it('is the weakest assessed total effectiveness among its controls', () => {
    expect(weakestEffectiveness(['Effective', 'Less Effective', 'Highly Effective'])).toBe('Less Effective');
    expect(weakestEffectiveness(['Not Effective', 'Effective'])).toBe('Not Effective');
    expect(weakestEffectiveness(['Highly Effective'])).toBe('Highly Effective');
  });

  it('leaves unassessed controls out, and is null when none is assessed', () => {
    expect(weakestEffectiveness([null, 'Moderately Effective', null])).toBe('Moderately Effective');
    expect(weakestEffectiveness([null, null])).toBeNull();
    expect(weakestEffectiveness([])).toBeNull();
  });

  it('groups links by their scenario and leaves BRA-wide links out', () => {
    const links = [
      { id: 'a', bra_risk_scenario_id: 's1' },
      { id: 'b', bra_risk_scenario_id: null },
      { id: 'c', bra_risk_scenario_id: 's1' },
      { id: 'd', bra_risk_scenario_id: 's2' },
    ];
    const grouped = controlsByScenario(links);
    expect([...grouped.keys()]).toEqual(['s1', 's2']);
    expect(grouped.get('s1')!.map((l) => l.id)).toEqual(['a', 'c']);
  });
});
