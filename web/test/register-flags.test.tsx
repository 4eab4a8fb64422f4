import { screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { RegisterRow } from '../src/features/risk-register/api';
import { rowFlags } from '../src/features/risk-register/register-flags';
import { RegisterTable } from '../src/features/risk-register/register-table';
import { renderWithTheme } from './render';

const rating = (score: number, level: 'Low' | 'Medium' | 'High' | 'Very High') => ({ impact_score: 1, likelihood_score: score, risk_score: score, risk_level: level });

function row(patch: Partial<RegisterRow>): RegisterRow {
  return {
    legal_entity: { id: 'e', name: 'Harbourview Bank plc' },
    business_unit: null,
    bra: { id: 'b', name: 'FY26', period: '2026', assessor: 'Priya Raman', status: 'in_progress', approved_at: null, live: true },
    scenario: { id: 's', risk_scenario_id: 'r', name: 'Card fraud', category: 'Fraud' },
    inherent_rating: null,
    residual_rating: null,
    appetite_threshold: 12,
    above_appetite: false,
    control_effectiveness: null,
    open_actions: 0,
    overdue_actions: 0,
    ...patch,
  } as RegisterRow;
}

describe("the register's flags", () => {
  it('an unrated scenario is flagged, and never shown "within" its appetite', () => {
    expect(rowFlags(row({}))).toEqual({ unrated: true, residualAboveInherent: false });
    renderWithTheme(<MemoryRouter><RegisterTable rows={[row({ inherent_rating: rating(4, 'Low') })]} /></MemoryRouter>);
    expect(screen.getByTestId('register-row').textContent).not.toContain('Within 12');
    expect(screen.getByTestId('register-row').textContent).toContain('Not judged');
    expect(screen.getByTestId('register-row').textContent).toContain('Priya Raman');
    expect(document.querySelector('[data-flag="unrated"]')).not.toBeNull();
  });

  it('a residual rating above the inherent one is flagged; equal or below is not', () => {
    expect(rowFlags(row({ inherent_rating: rating(6, 'Medium'), residual_rating: rating(9, 'Medium') })).residualAboveInherent).toBe(true);
    expect(rowFlags(row({ inherent_rating: rating(9, 'Medium'), residual_rating: rating(9, 'Medium') })).residualAboveInherent).toBe(false);
    expect(rowFlags(row({ inherent_rating: null, residual_rating: rating(9, 'Medium') })).residualAboveInherent).toBe(false);
    renderWithTheme(<MemoryRouter><RegisterTable rows={[row({ inherent_rating: rating(6, 'Medium'), residual_rating: rating(9, 'Medium') })]} /></MemoryRouter>);
    expect(document.querySelector('[data-flag="residual-above-inherent"]')).not.toBeNull();
    expect(screen.getByTestId('register-row').textContent).toContain('Within 12');
  });
});
