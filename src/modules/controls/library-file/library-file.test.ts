import { describe, expect, it } from 'vitest';
import { LIBRARY_COLUMNS, MAX_IMPORT_ROWS, checkHeader, decodeCell, encodeCell, isCalendarDate, readLibraryFile } from './library-file.js';

describe('control library file cells', () => {
  it.each(['=SUM(A1:A9)', '+1', '-5', '@cmd', "'quoted", "''twice", 'plain text', 'a, "b"'])('round-trips %j through encode and decode', (text) => {
    expect(decodeCell(encodeCell(text))).toBe(text);
  });

  it('neutralises a cell a spreadsheet would run as a formula', () => {
    expect(encodeCell('=HYPERLINK("http://x")')).toBe('\'=HYPERLINK("http://x")');
    expect(encodeCell('plain')).toBe('plain');
    expect(encodeCell(null)).toBe('');
    expect(decodeCell('')).toBeNull();
  });

  it('knows a calendar date from year 1 on', () => {
    expect(isCalendarDate('2026-02-28')).toBe(true);
    expect(isCalendarDate('2024-02-29')).toBe(true);
    expect(isCalendarDate('2026-02-29')).toBe(false);
    expect(isCalendarDate('0000-01-01')).toBe(false);
    expect(isCalendarDate('0001-01-01')).toBe(true);
    expect(isCalendarDate('2026-1-01')).toBe(false);
  });
});

describe('reading a control library file', () => {
  const header = [...LIBRARY_COLUMNS];
  const row = (values: Partial<Record<(typeof LIBRARY_COLUMNS)[number], string>>) => LIBRARY_COLUMNS.map((column) => values[column] ?? '');

  it('refuses an unknown or doubled column and a missing key_control or sub_control column', () => {
    expect(checkHeader(['key_control', 'sub_control', 'colour', 'tod', 'tod'])).toEqual([
      expect.objectContaining({ row: 1, column: 'colour' }),
      expect.objectContaining({ row: 1, column: 'tod', message: 'appears twice' }),
    ]);
    expect(checkHeader(['key_control']).map((problem) => problem.column)).toEqual(['sub_control']);
  });

  it('names every bad cell by its row in the file (header = row 1) and its column', () => {
    const { problems } = readLibraryFile([
      header,
      row({ key_control: 'Access', sub_control: 'Reviews', tod: 'B', toe: '2' }),
      row({ key_control: 'Access', sub_control: 'Leavers', tod: 'F', testing_date: '2026-13-01' }),
      row({ sub_control: 'Orphan' }),
      row({ key_control: 'Change', tod: 'A' }),
    ]);
    expect(problems).toEqual([
      { row: 3, column: 'tod', message: 'must be one of A, B, C, D, E' },
      { row: 3, column: 'testing_date', message: 'must be a date YYYY-MM-DD' },
      { row: 4, column: 'key_control', message: 'is required' },
      { row: 5, column: 'tod', message: 'needs a sub_control on the same row' },
    ]);
  });

  it('leaves fields of an absent column untouched and clears those of an empty cell', () => {
    const { rows, problems } = readLibraryFile([['key_control', 'sub_control', 'tested_by'], ['Access', 'Reviews', '']]);
    expect(problems).toEqual([]);
    expect(rows[0]!.keyControl).toEqual({ name: 'Access', description: null, hasDescription: false });
    expect(rows[0]!.subControl!.values).toEqual({ tested_by: null });
  });

  it('skips blank lines and takes at most the row limit', () => {
    expect(readLibraryFile([header, row({}), row({ key_control: 'A', sub_control: 'B' })]).rows).toHaveLength(1);
    const tooMany = [header, ...Array.from({ length: MAX_IMPORT_ROWS + 1 }, (_, i) => row({ key_control: 'K', sub_control: `S${i}` }))];
    expect(readLibraryFile(tooMany).problems).toEqual([expect.objectContaining({ column: 'file', message: expect.stringContaining('more than 5,000 rows') })]);
  });
});
