import { screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { RiskHeatMap as RiskHeatMapData } from '../src/features/dashboard/api';
import { RiskHeatMap } from '../src/features/dashboard/risk-heat-map';
import { renderWithTheme } from './render';

const LEVELS = [1, 2, 3, 4, 5];
type Cell = RiskHeatMapData['cells'][number];

/** A map as the service answers it (impact 5 first), every cell "Low" with no rows unless given. */
function heatMap(kind: 'inherent' | 'residual', cells: Record<string, Partial<Cell>> = {}): RiskHeatMapData {
  const all: Cell[] = [];
  for (const impact of [...LEVELS].reverse()) {
    for (const likelihood of LEVELS) {
      const filter = { legal_entity_id: 'e1', [`${kind}_impact`]: impact, [`${kind}_likelihood`]: likelihood };
      all.push({
        impact_score: impact,
        likelihood_score: likelihood,
        risk_score: impact * likelihood,
        risk_level: 'Low',
        count: 0,
        register_filter: filter,
        register_query: new URLSearchParams(Object.entries(filter).map(([key, value]) => [key, String(value)])).toString(),
        ...cells[`${impact}${likelihood}`],
      });
    }
  }
  return { impact_levels: LEVELS, likelihood_levels: LEVELS, cells: all, total: all.reduce((sum, cell) => sum + cell.count, 0) };
}

const draw = (map: RiskHeatMapData, kind: 'inherent' | 'residual' = 'residual') =>
  renderWithTheme(
    <MemoryRouter>
      <RiskHeatMap kind={kind} heatMap={map} />
    </MemoryRouter>,
  );

describe('the 5×5 risk heat map (impact × likelihood)', () => {
  it('draws 25 cells, impact 5 in the top row and likelihood 1 to 5 across, with their counts', () => {
    draw(heatMap('residual', { '43': { count: 2 }, '11': { count: 1 } }));
    const cells = screen.getAllByRole('link');
    expect(cells).toHaveLength(25);
    expect(cells[0]!.dataset.testid).toBe('risk-residual-5-1');
    expect(cells[4]!.dataset.testid).toBe('risk-residual-5-5');
    expect(cells[24]!.dataset.testid).toBe('risk-residual-1-5');
    expect(screen.getByTestId('risk-residual-4-3').textContent).toBe('2');
    expect(screen.getByText('3 scenarios with a residual rating')).toBeTruthy();
  });

  it('links each cell to the register with the filter the service gives for it', () => {
    draw(heatMap('inherent'), 'inherent');
    expect(screen.getByTestId('risk-inherent-4-3').getAttribute('href')).toBe('/risk-register?legal_entity_id=e1&inherent_impact=4&inherent_likelihood=3');
  });

  it('colours each cell by the band the service gives it, not by its position', () => {
    // 1×1 is Low in D6.1; the map shows what the answer says.
    draw(heatMap('residual', { '11': { count: 1, risk_level: 'Very High' }, '55': { count: 0, risk_level: 'Low' } }));
    expect(screen.getByTestId('risk-residual-1-1').style.background).toContain('--mantine-color-red-4');
    expect(screen.getByTestId('risk-residual-5-5').style.background).toContain('--mantine-color-green-1');
    expect(screen.getByTestId('risk-residual-1-1').getAttribute('aria-label')).toBe('Residual impact 1, likelihood 1: score 1, Very High, 1 scenario');
  });
});
