/**
 * Cells of the exports (D7.6 for the audit export; the risk register's CSV and XLSX too): a `'` before any
 * text a spreadsheet would read as a formula (one starting with `=`, `+`, `-`, `@`, tab or carriage
 * return), and for CSV RFC 4180 quoting. Pure: no I/O.
 */
/** The first characters that make a spreadsheet read a text as a formula, as character codes (SQL's ascii()). */
export const FORMULA_START_CODES: readonly number[] = ['=', '+', '-', '@', '\t', '\r'].map((character) => character.charCodeAt(0));
const FORMULA_START = new Set(FORMULA_START_CODES);
const NEEDS_QUOTES = /[",\r\n]/;

/** Text that a spreadsheet will show as text, never evaluate. */
export function formulaSafe(text: string): string {
  return FORMULA_START.has(text.charCodeAt(0)) ? `'${text}` : text;
}

/** One cell's text: null and undefined are empty; objects are JSON text; everything else its string. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = formulaSafe(
    value instanceof Date ? value.toISOString() : typeof value === 'object' ? JSON.stringify(value) : String(value),
  );
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record: cells joined by commas, ended by CRLF (RFC 4180). */
export function csvRow(values: readonly unknown[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
