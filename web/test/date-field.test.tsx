import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { DateField } from '../src/components/date-field';
import { renderWithTheme } from './render';

describe('the date field', () => {
  it('Enter in the field does not submit its form; Enter elsewhere still does', () => {
    const submitted = vi.fn((event: { preventDefault: () => void }) => event.preventDefault());
    renderWithTheme(
      <form onSubmit={submitted}>
        <DateField label="Due date" />
        <input aria-label="Name" />
        <button type="submit">Save</button>
      </form>,
    );
    const date = screen.getByLabelText('Due date');
    fireEvent.change(date, { target: { value: '2027-01-15' } });
    const enterInDate = fireEvent.keyDown(date, { key: 'Enter', code: 'Enter' });
    expect(enterInDate).toBe(false); // the default (the implicit submission) was prevented
    const enterInName = fireEvent.keyDown(screen.getByLabelText('Name'), { key: 'Enter', code: 'Enter' });
    expect(enterInName).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(submitted).toHaveBeenCalledTimes(1);
  });
});
