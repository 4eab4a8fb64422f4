import { TESTING_FREQUENCIES, type TestingFrequency, type TestOfDesign, type TestOfEffectiveness } from '../../../platform/db/tables/controls.js';
import { csvRow, formulaSafe } from '../../../platform/export/csv-cell.js';
import { TOD_LEVELS, TOE_LEVELS } from '../effectiveness-matrix.js';
import { TEST_RESULT_COLUMNS } from '../test-result.js';

/**
 * The control library as a file (CSV or XLSX): one row per active sub-control, with its key control's
 * name and description repeated, and one row with an empty `sub_control` for a key control without
 * sub-controls. Pure: no I/O, unit-tested in library-file.test.ts.
 */
export const LIBRARY_COLUMNS = [
  'key_control',
  'key_control_description',
  'sub_control',
  'sub_control_description',
  ...TEST_RESULT_COLUMNS,
  // Last, so that the columns a file had before it keep their places.
  'testing_frequency',
] as const;
export type LibraryColumn = (typeof LIBRARY_COLUMNS)[number];

/** Computed from tod and toe (3.5): exported for the reader, ignored on import. */
const COMPUTED_COLUMNS: ReadonlySet<LibraryColumn> = new Set(['total_effectiveness']);

export const MAX_IMPORT_ROWS = 5000;

/**
 * A text as a file cell. A spreadsheet would run a cell starting with `=`, `+`, `-`, `@`, tab or CR as a
 * formula, so such a cell gets a `'` in front (as the audit export does); a text that itself starts with
 * `'` gets one more, so that removing one leading `'` on import gives back exactly what was exported.
 */
export function encodeCell(text: string | null): string {
  if (text === null) return '';
  return text.startsWith("'") ? `'${text}` : formulaSafe(text);
}

/** The inverse of encodeCell: one leading `'` removed; an empty cell is no value. */
export function decodeCell(cell: string): string | null {
  const text = cell.startsWith("'") ? cell.slice(1) : cell;
  return text === '' ? null : text;
}

export type LibraryRecord = Record<LibraryColumn, string | null>;

/** One CSV line of the export. Cells are encoded here; csvRow only quotes (nothing of ours starts a formula). */
export const libraryCsvRow = (record: LibraryRecord) => csvRow(LIBRARY_COLUMNS.map((column) => encodeCell(record[column])));
export const libraryCsvHeader = () => csvRow(LIBRARY_COLUMNS);

export interface RowProblem {
  /** The row's number in the file: the header is row 1, the first data row row 2. */
  row: number;
  column: string;
  message: string;
}

/** A valid data row, ready to be matched against the library. */
export interface ImportRow {
  row: number;
  keyControl: { name: string; description: string | null; hasDescription: boolean };
  subControl: {
    name: string;
    values: {
      description?: string | null;
      tod?: TestOfDesign | null;
      toe?: TestOfEffectiveness | null;
      testing_date?: string | null;
      tested_by?: string | null;
      evidence_notes?: string | null;
      tod_justification?: string | null;
      toe_justification?: string | null;
      testing_frequency?: TestingFrequency | null;
    };
  } | null;
}

/** The header: every known column at most once, key_control and sub_control present, nothing unknown. */
export function checkHeader(header: readonly string[]): RowProblem[] {
  const problems: RowProblem[] = [];
  const seen = new Set<string>();
  for (const name of header) {
    if (!(LIBRARY_COLUMNS as readonly string[]).includes(name)) {
      problems.push({ row: 1, column: name, message: `is not a column of the control library (${LIBRARY_COLUMNS.join(', ')})` });
    } else if (seen.has(name)) {
      problems.push({ row: 1, column: name, message: 'appears twice' });
    }
    seen.add(name);
  }
  for (const required of ['key_control', 'sub_control'] as const) {
    if (!seen.has(required)) problems.push({ row: 1, column: required, message: 'is required' });
  }
  return problems;
}

const NAME_MAX = 200;
const TEXT_MAX = 5000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date from year 1 on (PostgreSQL has no year 0). */
export function isCalendarDate(text: string): boolean {
  const match = DATE.exec(text);
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1) return false;
  const date = new Date(Date.UTC(2000, month - 1, day));
  date.setUTCFullYear(year);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * Checks one data row (cells by column name, already decoded and trimmed) and shapes it. Columns absent
 * from the file leave the matching fields untouched on import; a present but empty cell clears them.
 */
export function readRow(row: number, cells: ReadonlyMap<string, string | null>): { value?: ImportRow; problems: RowProblem[] } {
  const problems: RowProblem[] = [];
  const problem = (column: string, message: string) => problems.push({ row, column, message });
  for (const [column, text] of cells) {
    if (text === null || COMPUTED_COLUMNS.has(column as LibraryColumn)) continue;
    const max = column === 'key_control' || column === 'sub_control' || column === 'tested_by' ? NAME_MAX : TEXT_MAX;
    if (text.length > max) problem(column, `is longer than ${max.toLocaleString('en-US')} characters`);
    if (text.includes('\u0000')) problem(column, 'contains a NUL character');
  }
  const keyName = cells.get('key_control') ?? null;
  if (keyName === null) problem('key_control', 'is required');
  const tod = cells.get('tod') ?? null;
  if (tod !== null && !(TOD_LEVELS as readonly string[]).includes(tod)) problem('tod', 'must be one of A, B, C, D, E');
  const toe = cells.get('toe') ?? null;
  if (toe !== null && !(TOE_LEVELS as readonly string[]).includes(toe)) problem('toe', 'must be one of 1, 2, 3, 4, 5');
  const testingDate = cells.get('testing_date') ?? null;
  if (testingDate !== null && !isCalendarDate(testingDate)) problem('testing_date', 'must be a date YYYY-MM-DD');
  const frequency = cells.get('testing_frequency') ?? null;
  if (frequency !== null && !(TESTING_FREQUENCIES as readonly string[]).includes(frequency)) problem('testing_frequency', `must be one of ${TESTING_FREQUENCIES.join(', ')}`);
  const subName = cells.get('sub_control') ?? null;
  if (subName === null) {
    for (const column of ['sub_control_description', 'tod', 'toe', 'testing_date', 'tested_by', 'evidence_notes', 'tod_justification', 'toe_justification', 'testing_frequency']) {
      if ((cells.get(column) ?? null) !== null) problem(column, 'needs a sub_control on the same row');
    }
  }
  if (problems.length > 0) return { problems };

  const values: NonNullable<ImportRow['subControl']>['values'] = {};
  const take = <K extends keyof typeof values>(field: K, column: string) => {
    if (cells.has(column)) values[field] = (cells.get(column) ?? null) as (typeof values)[K];
  };
  take('description', 'sub_control_description');
  take('tod', 'tod');
  take('toe', 'toe');
  take('testing_date', 'testing_date');
  take('tested_by', 'tested_by');
  take('evidence_notes', 'evidence_notes');
  take('tod_justification', 'tod_justification');
  take('toe_justification', 'toe_justification');
  take('testing_frequency', 'testing_frequency');
  return {
    problems,
    value: {
      row,
      keyControl: {
        name: keyName!,
        description: cells.get('key_control_description') ?? null,
        hasDescription: cells.has('key_control_description'),
      },
      subControl: subName === null ? null : { name: subName, values },
    },
  };
}

/** Turns the file's records (header first) into rows and the problems of each, header problems first. */
export function readLibraryFile(records: readonly (readonly string[])[]): { rows: ImportRow[]; problems: RowProblem[] } {
  const [header = [], ...data] = records;
  const names = header.map((name) => name.trim());
  const problems = checkHeader(names);
  if (problems.length > 0) return { rows: [], problems };
  const rows: ImportRow[] = [];
  data.forEach((record, index) => {
    const row = index + 2;
    if (record.every((cell) => cell.trim() === '')) return; // a blank line, as spreadsheets leave them
    if (record.length > names.length) {
      problems.push({ row, column: `#${names.length + 1}`, message: 'has more cells than the header names' });
      return;
    }
    const cells = new Map<string, string | null>(names.map((name, column) => [name, decodeCell((record[column] ?? '').trim())]));
    const read = readRow(row, cells);
    problems.push(...read.problems);
    if (read.value !== undefined) rows.push(read.value);
  });
  if (rows.length + problems.filter((p) => p.row > 1).length > MAX_IMPORT_ROWS) {
    return { rows: [], problems: [{ row: MAX_IMPORT_ROWS + 2, column: 'file', message: `holds more than ${MAX_IMPORT_ROWS.toLocaleString('en-US')} rows` }] };
  }
  return { rows, problems };
}
