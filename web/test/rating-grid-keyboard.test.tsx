import { fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { RatingGrid } from '../src/features/bras/rating-grid';
import { renderWithTheme } from './render';

function Picker() {
  const [cell, setCell] = useState<{ impact: number; likelihood: number } | null>(null);
  return (
    <>
      <RatingGrid label="Inherent" saved={null} selected={cell} onSelect={setCell} />
      <output data-testid="picked">{cell ? `${cell.impact}-${cell.likelihood}` : 'none'}</output>
    </>
  );
}

describe('the rating grid with the keyboard: one control, moved with the arrow keys', () => {
  it('one tab stop: the centre when nothing is picked, else the saved cell', () => {
    renderWithTheme(<RatingGrid label="Inherent" saved={null} selected={null} onSelect={() => undefined} />);
    const stops = screen.getAllByRole('button').filter((cell) => cell.tabIndex === 0);
    expect(stops.map((cell) => cell.dataset.testid)).toEqual(['cell-3-3']);
  });

  it('the saved cell is the tab stop of a rated scenario', () => {
    renderWithTheme(<RatingGrid label="Residual" saved={{ impact_score: 2, likelihood_score: 4, risk_score: 8, risk_level: 'Medium' }} selected={null} onSelect={() => undefined} />);
    expect(screen.getAllByRole('button').filter((cell) => cell.tabIndex === 0).map((cell) => cell.dataset.testid)).toEqual(['cell-2-4']);
  });

  it('arrows move the pick and the focus (up raises impact, right raises likelihood), stopping at the edges; Home and End the row ends', () => {
    renderWithTheme(<Picker />);
    const start = screen.getByTestId('cell-3-3');
    start.focus();
    fireEvent.keyDown(start, { key: 'ArrowUp' });
    expect(screen.getByTestId('picked').textContent).toBe('4-3');
    expect(document.activeElement).toBe(screen.getByTestId('cell-4-3'));
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowRight' });
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowRight' });
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowRight' });
    expect(screen.getByTestId('picked').textContent).toBe('4-5');
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowUp' });
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowUp' });
    expect(screen.getByTestId('picked').textContent).toBe('5-5');
    fireEvent.keyDown(document.activeElement!, { key: 'Home' });
    expect(screen.getByTestId('picked').textContent).toBe('5-1');
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(screen.getByTestId('picked').textContent).toBe('4-1');
    expect(screen.getAllByRole('button').filter((cell) => cell.tabIndex === 0).map((cell) => cell.dataset.testid)).toEqual(['cell-4-1']);
    expect(screen.getByTestId('cell-4-1').getAttribute('aria-pressed')).toBe('true');
  });

  it('a disabled grid ignores the keys', () => {
    let picked = 0;
    renderWithTheme(<RatingGrid label="Inherent" saved={null} selected={null} onSelect={() => (picked += 1)} disabled />);
    fireEvent.keyDown(screen.getByTestId('cell-3-3'), { key: 'ArrowUp' });
    expect(picked).toBe(0);
  });
});
