import { describe, expect, it } from 'vitest';
import { EFFECTIVENESS_MATRIX } from '../effectiveness-matrix.js';
import { shapeHeatMap } from './heat-map.js';

describe('heat map cells (4.3, D7.1)', () => {
  it('has all 25 cells with zero counts when nothing is assessed', () => {
    const map = shapeHeatMap([]);
    expect(map.tod_levels).toEqual(['A', 'B', 'C', 'D', 'E']);
    expect(map.toe_levels).toEqual(['1', '2', '3', '4', '5']);
    expect(Object.keys(map.data)).toEqual(['A', 'B', 'C', 'D', 'E']);
    for (const tod of map.tod_levels) {
      expect(Object.keys(map.data[tod])).toEqual(['1', '2', '3', '4', '5']);
      for (const toe of map.toe_levels) {
        expect(map.data[tod][toe]).toEqual({ count: 0, effectiveness: EFFECTIVENESS_MATRIX[tod][toe], filter: { tod, toe } });
      }
    }
    expect(map.total_assessed).toBe(0);
  });

  it('puts each count in its cell and sums them into total_assessed', () => {
    const map = shapeHeatMap([
      { tod: 'A', toe: '1', count: 3 },
      { tod: 'C', toe: '4', count: 2 },
      { tod: 'E', toe: '5', count: 1 },
    ]);
    expect(map.data.A['1']).toMatchObject({ count: 3, effectiveness: 'Highly Effective' });
    expect(map.data.C['4']).toMatchObject({ count: 2, effectiveness: 'Less Effective' });
    expect(map.data.E['5']).toMatchObject({ count: 1, effectiveness: 'Not Effective' });
    expect(map.data.B['2']).toMatchObject({ count: 0, effectiveness: 'Effective' });
    expect(map.total_assessed).toBe(6);
  });

  it("carries into each cell the sub-control list filter of its ToD, ToE and the map's scope", () => {
    const scoped = shapeHeatMap([], { legal_entity_id: 'le-1', bra_id: 'bra-1', archived: true });
    expect(scoped.data.D['2'].filter).toEqual({ tod: 'D', toe: '2', legal_entity_id: 'le-1', bra_id: 'bra-1', archived: true });
    expect(shapeHeatMap([], { archived: false }).data.A['5'].filter).toEqual({ tod: 'A', toe: '5' });
  });

  it('does not share cell objects between calls', () => {
    shapeHeatMap([{ tod: 'A', toe: '1', count: 5 }]);
    expect(shapeHeatMap([]).data.A['1'].count).toBe(0);
  });
});
