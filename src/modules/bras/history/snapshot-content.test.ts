import { describe, expect, it } from 'vitest';
import { currentSnapshotContent, type StoredContent } from './snapshot-content.js';

const base = {
  id: 'b',
  name: 'BRA',
  summary: { total_scenarios: 1, assessed_scenarios: 1, risks_above_appetite: 0, completion_percentage: 100 },
} as unknown as StoredContent;

describe('older snapshot content read as today’s shape', () => {
  it('makes old control links BRA-wide, gives scenarios no controls and ratings no justification', () => {
    const stored = {
      ...base,
      controls: [{ id: 'c', key_control_id: 'k', key_control_name: 'K', sub_control_id: 's', sub_control_name: 'S', tod: 'A', toe: '1', total_effectiveness: 'Highly Effective' }],
      scenarios: [
        {
          id: 'l', risk_scenario_id: 'r', name: 'N', category: 'C', included: true,
          inherent_rating: { impact_score: 2, likelihood_score: 3, risk_score: 6, risk_level: 'Medium' },
          residual_rating: null,
        },
      ],
    } as StoredContent;
    const content = currentSnapshotContent(stored);
    expect(content.controls[0]!.bra_risk_scenario_id).toBeNull();
    expect(content.scenarios[0]).toMatchObject({ controls: [], control_effectiveness: null, residual_rating: null, previous_residual_rating: null });
    expect(content.rolled_from_bra_id).toBeNull();
    expect(content.scenarios[0]!.inherent_rating).toEqual({ impact_score: 2, likelihood_score: 3, risk_score: 6, risk_level: 'Medium', justification: null });
  });

  it('keeps what a current snapshot holds', () => {
    const scenarioControl = { id: 'c', bra_risk_scenario_id: 'l', key_control_id: 'k', key_control_name: 'K', sub_control_id: 's', sub_control_name: 'S', tod: 'C', toe: '4', total_effectiveness: 'Less Effective' };
    const stored = {
      ...base,
      rolled_from_bra_id: null,
      controls: [scenarioControl],
      scenarios: [
        {
          id: 'l', risk_scenario_id: 'r', name: 'N', category: 'C', included: true,
          inherent_rating: { impact_score: 2, likelihood_score: 3, risk_score: 6, risk_level: 'Medium', justification: 'why' },
          residual_rating: null, controls: [scenarioControl], control_effectiveness: 'Less Effective',
          previous_residual_rating: { impact_score: 3, likelihood_score: 3, risk_score: 9, risk_level: 'Medium' },
          applicable_threshold: 9, above_appetite: null,
        },
      ],
      summary: { ...base.summary, scenarios_above_appetite: [] },
    } as StoredContent;
    expect(currentSnapshotContent(stored)).toEqual(stored);
    expect(currentSnapshotContent(stored, { appetite: { threshold_value: 9 } })).toEqual(stored);
  });

  it('flags the scenarios of an older snapshot and lists its breaches under the threshold it pinned', () => {
    const rated = (id: string, score: number) => ({
      id, risk_scenario_id: `r${id}`, name: `N${id}`, category: 'C', included: true,
      inherent_rating: { impact_score: 5, likelihood_score: 5, risk_score: 25, risk_level: 'Very High' },
      residual_rating: { impact_score: 1, likelihood_score: score, risk_score: score, risk_level: 'Low' },
    });
    const stored = { ...base, controls: [], scenarios: [rated('1', 4), rated('2', 3)] } as unknown as StoredContent;
    const content = currentSnapshotContent(stored, { appetite: { threshold_value: 3 } });
    expect(content.scenarios.map((s) => [s.applicable_threshold, s.above_appetite])).toEqual([[3, true], [3, false]]);
    expect(content.summary.scenarios_above_appetite).toEqual([{ id: '1', risk_scenario_id: 'r1', name: 'N1', residual_score: 4, threshold: 3 }]);
  });
});
