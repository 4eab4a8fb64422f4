import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { HeatMap } from '../src/features/controls/api';
import { ControlHeatMap } from '../src/features/controls/heat-map';
import { renderWithTheme } from './render';

const TOD = ['A', 'B', 'C', 'D', 'E'];
const TOE = ['1', '2', '3', '4', '5'];

/** A heat map as the service answers it; every cell labelled "Effective" unless given. */
function heatMap(cells: Record<string, { count: number; effectiveness: string }>): HeatMap {
  const data = Object.fromEntries(TOD.map((tod) => [tod, Object.fromEntries(TOE.map((toe) => [toe, cells[`${tod}${toe}`] ?? { count: 0, effectiveness: 'Effective' }]))]));
  const total = Object.values(cells).reduce((sum, cell) => sum + cell.count, 0);
  return { tod_levels: TOD, toe_levels: TOE, data, total_assessed: total } as unknown as HeatMap;
}

describe('the control heat map (ToD A–E × ToE 1–5)', () => {
  it('draws the 25 cells in ToD rows and ToE columns, with their counts', () => {
    renderWithTheme(<ControlHeatMap heatMap={heatMap({ A1: { count: 3, effectiveness: 'Highly Effective' }, E5: { count: 1, effectiveness: 'Not Effective' } })} onOpen={() => undefined} />);
    const cells = screen.getAllByRole('button');
    expect(cells).toHaveLength(25);
    expect(cells[0]!.dataset.testid).toBe('heat-A-1');
    expect(cells[4]!.dataset.testid).toBe('heat-A-5');
    expect(cells[24]!.dataset.testid).toBe('heat-E-5');
    expect(screen.getByTestId('heat-A-1').textContent).toBe('3');
    expect(screen.getByTestId('heat-C-3').textContent).toBe('0');
    expect(screen.getByText('4 assessed sub-controls')).toBeTruthy();
  });

  it("colours each cell by the label the service gives it, not by its position", () => {
    // C3 is "Moderately Effective" in the 3.5 matrix; the map shows what the answer says.
    renderWithTheme(<ControlHeatMap heatMap={heatMap({ C3: { count: 2, effectiveness: 'Not Effective' }, A1: { count: 1, effectiveness: 'Highly Effective' } })} onOpen={() => undefined} />);
    expect(screen.getByTestId('heat-C-3').style.background).toContain('--mantine-color-red-4');
    expect(screen.getByTestId('heat-A-1').style.background).toContain('--mantine-color-teal-4');
    expect(screen.getByTestId('heat-C-3').getAttribute('aria-label')).toBe('ToD C, ToE 3: Not Effective, 2 sub-controls');
  });

  it('a click on a cell opens that cell (its ToD and ToE)', () => {
    const onOpen = vi.fn();
    renderWithTheme(<ControlHeatMap heatMap={heatMap({})} onOpen={onOpen} />);
    fireEvent.click(screen.getByTestId('heat-B-4'));
    expect(onOpen).toHaveBeenCalledWith({ tod: 'B', toe: '4' });
  });
});
