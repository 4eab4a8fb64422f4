/**
 * CSV cells for the audit export (D7.6): RFC 4180 quoting, and a `'` before any cell a spreadsheet would
 * read as a formula (one starting with `=`, `+`, `-`, `@`, tab or carriage return). Pure: no I/O.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell's text: null and undefined are empty; objects are JSON text; everything else its string. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text =
    value instanceof Date ? value.toISOString() : typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record: cells joined by commas, ended by CRLF (RFC 4180). */
export function csvRow(values: readonly unknown[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
