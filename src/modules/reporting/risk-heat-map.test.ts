import { describe, expect, it } from 'vitest';
import { shapeRiskHeatMap } from './risk-heat-map.js';

describe('the dashboard’s risk heat map', () => {
  it('has all 25 cells, zeros included, each scored and banded (D6.1), counts placed where they belong', () => {
    const map = shapeRiskHeatMap('residual', [{ impact: 4, likelihood: 3, count: 2 }, { impact: 1, likelihood: 1, count: 5 }], {});
    expect(map.cells).toHaveLength(25);
    expect(map.total).toBe(7);
    expect(map.cells[0]).toMatchObject({ impact_score: 5, likelihood_score: 1, count: 0 });
    expect(map.cells.find((c) => c.impact_score === 4 && c.likelihood_score === 3)).toMatchObject({ count: 2, risk_score: 12, risk_level: 'High' });
    expect(map.cells.find((c) => c.impact_score === 1 && c.likelihood_score === 1)).toMatchObject({ count: 5, risk_level: 'Low' });
  });

  it('gives each cell the register filter of its kind and the dashboard’s place', () => {
    const map = shapeRiskHeatMap('inherent', [], { legal_entity_id: 'e', business_unit_id: 'u' });
    const cell = map.cells.find((c) => c.impact_score === 2 && c.likelihood_score === 5)!;
    expect(cell.register_filter).toEqual({ legal_entity_id: 'e', business_unit_id: 'u', inherent_impact: 2, inherent_likelihood: 5 });
    expect(cell.register_query).toBe('legal_entity_id=e&business_unit_id=u&inherent_impact=2&inherent_likelihood=5');
  });
});
