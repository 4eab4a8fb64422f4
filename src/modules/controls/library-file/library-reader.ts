import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import type { RowProblem } from './library-file.js';

export const CSV_TYPE = 'text/csv';
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export class UnreadableFile extends Error {
  constructor(readonly problem: RowProblem) {
    super(problem.message);
  }
}

/** A CSV upload's records (RFC 4180, a UTF-8 byte-order mark skipped), each cell as text. */
function readCsv(text: string): string[][] {
  try {
    return parse(text, { bom: true, relax_column_count: true, skip_empty_lines: false }) as string[][];
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    throw new UnreadableFile({ row: line ?? 0, column: 'file', message: `is not valid CSV: ${(error as Error).message}` });
  }
}

/** An .xlsx upload's first sheet, each cell as the text a spreadsheet shows. */
async function readXlsx(bytes: Buffer): Promise<string[][]> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch {
    throw new UnreadableFile({ row: 0, column: 'file', message: 'is not a readable .xlsx workbook' });
  }
  const sheet = workbook.worksheets[0];
  if (sheet === undefined) return [];
  const records: string[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row, rowNumber) => {
    const cells: string[] = [];
    for (let column = 1; column <= row.cellCount; column += 1) cells.push(row.getCell(column).text ?? '');
    records[rowNumber - 1] = cells;
  });
  return Array.from(records, (record) => record ?? []);
}

/** The records of an upload of either type the import takes (the route refuses any other with 415). */
export async function readUpload(contentType: string, body: string | Buffer): Promise<string[][]> {
  return contentType === XLSX_TYPE ? readXlsx(Buffer.isBuffer(body) ? body : Buffer.from(body)) : readCsv(body.toString());
}
