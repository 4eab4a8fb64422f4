import { describe, expect, it } from 'vitest';
import { csvCell, csvRow, formulaSafe } from './csv-cell.js';

describe('CSV cells of the exports (D7.6)', () => {
  it('leaves plain text as it is and renders null as an empty cell', () => {
    expect(csvCell('create')).toBe('create');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(42)).toBe('42');
  });

  it('quotes commas, quotes and line breaks as RFC 4180 says, doubling inner quotes', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
    expect(csvCell('cr\rlf')).toBe('"cr\rlf"');
  });

  it.each(['=', '+', '-', '@', '\t', '\r'])('prefixes a cell starting with %j with a quote mark (formula injection)', (start) => {
    const cell = csvCell(`${start}SUM(A1:A2)`);
    const unquoted = cell.startsWith('"') ? cell.slice(1, -1) : cell;
    expect(unquoted).toBe(`'${start}SUM(A1:A2)`);
  });

  it('prefixes and then quotes a formula that also holds a comma', () => {
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
  });

  it('does not prefix a formula character that is not first', () => {
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell('2026-11-23')).toBe('2026-11-23');
  });

  it('renders objects as JSON text and dates as ISO timestamps', () => {
    expect(csvCell({ a: 1, b: 'x' })).toBe('"{""a"":1,""b"":""x""}"');
    expect(csvCell(new Date('2026-11-23T10:00:00.000Z'))).toBe('2026-11-23T10:00:00.000Z');
  });

  it('joins a record with commas and ends it with CRLF', () => {
    expect(csvRow(['a', null, 'b,c'])).toBe('a,,"b,c"\r\n');
  });
});

describe('formula-safe text (XLSX text cells)', () => {
  it('prefixes what a spreadsheet would evaluate and leaves the rest', () => {
    expect(formulaSafe('=HYPERLINK("x")')).toBe(`'=HYPERLINK("x")`);
    expect(formulaSafe('-1+2')).toBe(`'-1+2`);
    expect(formulaSafe('@SUM(A1)')).toBe(`'@SUM(A1)`);
    expect(formulaSafe('Payment fraud')).toBe('Payment fraud');
  });
});
