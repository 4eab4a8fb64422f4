import { PassThrough, Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { xlsxSheetStream } from './xlsx-stream.js';

const ROWS = 30_000;
const BATCH = 100;
const CHUNK = 64 * 1024;

const row = (n: number) => [
  `Entity ${n % 1000}`,
  `3f1c3e2a-1d2b-4c5d-8e9f-${String(n).padStart(12, '0')}`,
  n % 7 === 0 ? `'=SUM(A${n})` : `Scenario ${n}`,
  n % 25,
  n % 2 === 0,
  null,
];

/** Every row of the first sheet, read back with exceljs's streaming reader. */
async function readBack(file: Buffer): Promise<unknown[][]> {
  const rows: unknown[][] = [];
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([file]), { sharedStrings: 'cache', styles: 'ignore', hyperlinks: 'ignore', worksheets: 'emit' });
  for await (const sheet of reader) for await (const r of sheet as AsyncIterable<ExcelJS.Row>) rows.push((r.values as unknown[]).slice(1));
  return rows;
}

describe('XLSX sheet stream (exports in constant memory)', () => {
  it(`writes ${ROWS.toLocaleString('en')} rows with never more than a few chunks of XML waiting for the deflater`, async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (chunk: Buffer) => chunks.push(chunk));
    const ended = new Promise((resolve) => out.on('end', resolve));
    const sheet = xlsxSheetStream(out, 'Rows');
    let most = 0;
    sheet.addRow(['entity', 'id', 'name', 'score', 'flag', 'empty']);
    for (let n = 0; n < ROWS; n += BATCH) {
      for (let i = n; i < n + BATCH; i += 1) sheet.addRow(row(i));
      await sheet.room();
      // What `room()` leaves behind: the XML the archive has not taken yet. Without the wait, rows come faster
      // than they are deflated and this grows with the rows (a third of a kilobyte each).
      most = Math.max(most, sheet.pending);
    }
    await sheet.finish();
    await ended;
    // At most a chunk on each side of the part stream and one being gathered, with the last batch: measured
    // 127 KiB here, and 0.4 to 1 MiB when `room()` does not wait (in the same run, by machine load).
    expect(most).toBeLessThan(3.5 * CHUNK);
    const rows = await readBack(Buffer.concat(chunks));
    expect(rows).toHaveLength(ROWS + 1);
    expect(rows[2]).toEqual(['Entity 1', '3f1c3e2a-1d2b-4c5d-8e9f-000000000001', 'Scenario 1', 1, false]);
    // Text stays text: a cell starting with "'=" is a string, never a formula.
    expect(rows[8]![2]).toBe(`'=SUM(A7)`);
    expect(rows.flat().some((cell) => typeof cell === 'object' && cell !== null && 'formula' in cell)).toBe(false);
  });

  it('a download nobody reads stops the writer; when it closes, the writer is released and told the download is gone', async () => {
    const out = new PassThrough();
    const sheet = xlsxSheetStream(out, 'Rows');
    let written = 0;
    const writer = (async () => {
      for (let n = 0; n < 1_000_000; n += BATCH) {
        for (let i = n; i < n + BATCH; i += 1) sheet.addRow(row(i));
        written += BATCH;
        await sheet.room();
        if (sheet.gone) return;
      }
    })();
    // The archive has filled what the unread download buffers: from here on the writer waits on `room()`.
    while (!out.writableNeedDrain) await new Promise((resolve) => setImmediate(resolve));
    out.destroy();
    await writer;
    expect(sheet.gone).toBe(true);
    expect(written).toBeLessThan(1_000_000);
  });
});
