import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { RatingGrid } from '../src/features/bras/rating-grid';
import { renderWithTheme } from './render';

describe('the rating grid (5×5 impact × likelihood)', () => {
  it('draws 25 cells, impact 5 on the top row and likelihood 1 in the first column', () => {
    renderWithTheme(<RatingGrid label="Inherent" saved={null} selected={null} onSelect={() => undefined} />);
    const cells = screen.getAllByRole('button');
    expect(cells).toHaveLength(25);
    expect(cells[0]!.getAttribute('aria-label')).toBe('Impact 5, likelihood 1');
    expect(cells[24]!.getAttribute('aria-label')).toBe('Impact 1, likelihood 5');
    expect(screen.getByText('Not rated yet')).toBeTruthy();
  });

  it('a click picks the cell under the pointer: its impact and likelihood', () => {
    const onSelect = vi.fn();
    renderWithTheme(<RatingGrid label="Inherent" saved={null} selected={null} onSelect={onSelect} />);
    fireEvent.click(screen.getByTestId('cell-4-2'));
    expect(onSelect).toHaveBeenCalledWith({ impact: 4, likelihood: 2 });
  });

  it('marks the picked cell as pressed, and only that one', () => {
    renderWithTheme(<RatingGrid label="Inherent" saved={null} selected={{ impact: 3, likelihood: 5 }} onSelect={() => undefined} />);
    const pressed = screen.getAllByRole('button').filter((cell) => cell.getAttribute('aria-pressed') === 'true');
    expect(pressed.map((cell) => cell.dataset.testid)).toEqual(['cell-3-5']);
  });

  it("shows the saved rating's score and band as the service gave them, coloured by that band", () => {
    // A band the grid could not have worked out itself (4×4 is Very High by D6.1, not Medium): the grid
    // shows what it is given, so a wrong colour can only come from the service.
    const saved = { impact_score: 4, likelihood_score: 4, risk_score: 16, risk_level: 'Medium' };
    renderWithTheme(<RatingGrid label="Residual" saved={saved} selected={null} onSelect={() => undefined} />);
    const cell = screen.getByTestId('cell-4-4');
    expect(cell.textContent).toBe('16');
    expect(cell.getAttribute('aria-label')).toContain('saved, score 16, Medium');
    expect(cell.style.background).toContain('--mantine-color-yellow-4');
    const others = screen.getAllByRole('button').filter((other) => other !== cell);
    expect(others.every((other) => other.textContent === '' && other.style.background.includes('gray'))).toBe(true);
    expect(screen.getByText(/Saved: impact 4 × likelihood 4 = 16, Medium/)).toBeTruthy();
  });

  it('a read-only grid (a reviewer, an approved BRA) takes no clicks', () => {
    const onSelect = vi.fn();
    renderWithTheme(<RatingGrid label="Inherent" saved={null} selected={null} onSelect={onSelect} disabled />);
    fireEvent.click(screen.getByTestId('cell-2-2'));
    expect(onSelect).not.toHaveBeenCalled();
  });
});
