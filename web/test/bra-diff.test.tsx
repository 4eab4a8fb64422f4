import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BraDiffView } from '../src/features/bras/bra-diff';
import type { BraDiff } from '../src/features/bras/history-api';
import { renderWithTheme } from './render';

const BRA = '2c9e7a41-8b3d-4f6e-a1c2-7d8e9f0a1b2c';
const SOURCE = '1b8d6f30-7a2c-4e5d-90b1-6c7d8e9f0a1b';
const CYBER = { risk_scenario_id: '9f5c4d1e-7a6b-4c2d-9e0f-5a6b7c8d9e0f', name: 'Cyber intrusion', category: 'External fraud' };
const FRAUD = { risk_scenario_id: '8e4b3c0d-6f5a-4b1c-8d9e-4f5a6b7c8d9e', name: 'Card fraud', category: 'External fraud' };

/** A diff as the service answers it: the previous period's approval against now, nothing changed unless given. */
function diff(changes: Partial<BraDiff> = {}): BraDiff {
  return {
    bra_id: BRA,
    from: { kind: 'approved', snapshot_id: '4e1b9c63-0d5f-4a8b-c3e4-9f0a1b2c3d4e', bra_id: SOURCE, as_of: '2026-06-30T14:05:00.000Z' },
    to: { kind: 'current', snapshot_id: null, bra_id: BRA, as_of: '2026-11-28T09:30:00.000Z' },
    empty: false,
    scenarios: { added: [], removed: [], included: [], excluded: [] },
    ratings: [],
    controls: { added: [], removed: [], effectiveness_changed: [] },
    summary: [],
    methodology: { risk_bands: null, appetite: null },
    ...changes,
  };
}

const rowsOf = (table: HTMLElement) => within(table).getAllByRole('row').map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));

describe('the diff view', () => {
  it('lays a changed rating out side by side, before then after, under headers naming both ends', () => {
    renderWithTheme(
      <BraDiffView
        diff={diff({
          ratings: [
            {
              ...CYBER,
              rating_type: 'residual',
              from: { impact_score: 4, likelihood_score: 3, risk_score: 12, risk_level: 'High' },
              to: { impact_score: 3, likelihood_score: 3, risk_score: 9, risk_level: 'Medium' },
            },
            { ...FRAUD, rating_type: 'inherent', from: null, to: { impact_score: 5, likelihood_score: 5, risk_score: 25, risk_level: 'Very High' } },
          ],
        })}
      />,
    );
    const rows = rowsOf(screen.getByTestId('diff-Ratings'));
    expect(rows[0]).toEqual(['Scenario', 'Rating', expect.stringMatching(/^At approval \(previous period\), /), expect.stringMatching(/^Now, /)]);
    expect(rows[1]).toEqual(['Cyber intrusion', 'Residual', '12 · High (I4 × L3)', '9 · Medium (I3 × L3)']);
    expect(rows[2]).toEqual(['Card fraud', 'Inherent', 'Not rated', '25 · Very High (I5 × L5)']);
  });

  it('shows each summary figure with its signed change, and only the sections that changed', () => {
    renderWithTheme(<BraDiffView diff={diff({ summary: [{ field: 'risks_above_appetite', from: 2, to: 1, delta: -1 }, { field: 'total_scenarios', from: 3, to: 4, delta: 1 }] })} />);
    expect(rowsOf(screen.getByTestId('diff-Figures')).slice(1)).toEqual([
      ['Above appetite', '2', '1', '-1'],
      ['Scenarios', '3', '4', '+1'],
    ]);
    expect(screen.queryByTestId('diff-Ratings')).toBeNull();
    expect(screen.queryByTestId('diff-Controls')).toBeNull();
  });

  it('names scenario membership and control changes in words, a BRA-wide link as the whole BRA', () => {
    const control = { risk_scenario_id: null, scenario_name: null, key_control_id: 'k', key_control_name: 'Access management', sub_control_id: 's', sub_control_name: 'Quarterly review' };
    renderWithTheme(
      <BraDiffView
        diff={diff({
          scenarios: { added: [{ ...FRAUD, included: true, inherent_rating: null, residual_rating: null }], removed: [], included: [], excluded: [CYBER] },
          controls: { added: [], removed: [], effectiveness_changed: [{ ...control, from: { tod: 'B', toe: '2', total_effectiveness: 'Effective' }, to: { tod: 'D', toe: '4', total_effectiveness: 'Less Effective' } }] },
          methodology: { risk_bands: null, appetite: { from: { risk_level: 'High', threshold_value: 12 }, to: null } },
        })}
      />,
    );
    expect(rowsOf(screen.getByTestId('diff-Scenarios')).slice(1)).toEqual([
      ['Card fraud', 'Not in the BRA', 'Added'],
      ['Cyber intrusion', 'Included', 'Excluded'],
    ]);
    expect(rowsOf(screen.getByTestId('diff-Controls')).slice(1)).toEqual([['Access management / Quarterly review', 'The whole BRA', 'B/2 Effective', 'D/4 Less Effective']]);
    expect(rowsOf(screen.getByTestId('diff-Methodology')).slice(1)).toEqual([['Applicable appetite', 'High, threshold 12', 'None']]);
  });

  it('says plainly when nothing changed, with no empty tables', () => {
    renderWithTheme(<BraDiffView diff={diff({ empty: true })} />);
    expect(screen.getByTestId('diff-empty').textContent).toMatch(/^Nothing changed between at approval \(previous period\), .+ and now, /);
    expect(screen.queryByRole('table')).toBeNull();
  });
});
