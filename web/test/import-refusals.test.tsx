import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ImportRefusals, problemsOf } from '../src/features/organisation/import-refusals';
import { toApiError } from '../src/lib/api-error';
import { renderWithTheme } from './render';

const lines = ['key_control,sub_control,tod', 'Access,Quarterly review,3', 'Change,Approval,9'];

/** The service's 422 for a refused file: each cell as a field message and, structured, in details.rows. */
function refused(rows: { row: number; column: string; message: string }[], extraFields: { field: string; message: string }[] = []) {
  const fields = [...rows.map((row) => ({ field: `row ${row.row}, ${row.column}`, message: row.message })), ...extraFields];
  return toApiError(422, { error: 'The file was not imported', code: 'VALIDATION_ERROR', request_id: 'r', details: { fields, rows } });
}

describe('the control import dry run refusals', () => {
  it("shows each refused cell's row number, column, reason in words and the row's line of the file", () => {
    const problems = problemsOf(refused([{ row: 3, column: 'tod', message: 'must be a whole number from 1 to 4' }]));
    expect(problems).toEqual([{ row: 3, column: 'tod', message: 'must be a whole number from 1 to 4' }]);
    renderWithTheme(<ImportRefusals problems={problems} lines={lines} />);
    const rows = screen.getAllByTestId('refused-row');
    expect(rows).toHaveLength(1);
    const cells = within(rows[0]!).getAllByRole('cell').map((cell) => cell.textContent);
    expect(cells).toEqual(['3', 'tod', 'must be a whole number from 1 to 4', 'Change,Approval,9']);
    expect(screen.getByTestId('import-refusals').textContent).toContain('1 cell was refused; nothing was written');
  });

  it('a workbook (no lines) shows the row number alone; a field message outside details.rows is not a row refusal', () => {
    const problems = problemsOf(refused([{ row: 2, column: 'sub_control', message: 'is required' }], [{ field: 'key_control', message: 'column is missing' }]));
    expect(problems).toEqual([{ row: 2, column: 'sub_control', message: 'is required' }]);
    renderWithTheme(<ImportRefusals problems={problems} lines={null} />);
    const cells = within(screen.getByTestId('refused-row')).getAllByRole('cell').map((cell) => cell.textContent);
    expect(cells).toEqual(['2', 'sub_control', 'is required', '–']);
  });

  it('nothing refused shows nothing', () => {
    renderWithTheme(<ImportRefusals problems={problemsOf(new Error('network'))} lines={lines} />);
    expect(screen.queryByTestId('import-refusals')).toBeNull();
  });
});
