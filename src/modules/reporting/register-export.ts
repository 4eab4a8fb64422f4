import { Readable } from 'node:stream';
import type { CompiledQuery, Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.js';
import { csvRow, formulaSafe } from '../../platform/export/csv-cell.js';
import { cursorBatches } from '../../platform/export/cursor.js';
import { xlsxDownload } from '../../platform/export/xlsx-stream.js';
import { toRegisterCells } from './register.presenter.js';
import type { RegisterRow } from './register.repository.js';
import { REGISTER_COLUMNS } from './register.schemas.js';

export type RegisterFormat = 'csv' | 'xlsx';

export const REGISTER_CONTENT_TYPES: Record<RegisterFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

export const registerFileName = (format: RegisterFormat, now: Date) =>
  `risk-register-${now.toISOString().slice(0, 10).replace(/-/g, '')}.${format}`;

const BATCH = 100;

/** CSV: the header, then each batch of the cursor rendered and let go before the next is fetched. */
function csvStream(db: Kysely<DB>, query: CompiledQuery, onError: (error: unknown) => void): Readable {
  async function* chunks(): AsyncGenerator<string> {
    try {
      yield csvRow(REGISTER_COLUMNS);
      for await (const rows of cursorBatches<RegisterRow>(db, query, BATCH)) {
        // Rendered and dropped before waiting on the socket: only the text outlives the wait, so no row
        // survives into V8's old generation and memory stays flat.
        const piece = rows.map((row) => csvRow(toRegisterCells(row))).join('');
        rows.length = 0;
        yield piece;
      }
    } catch (error) {
      onError(error);
      throw error;
    }
  }
  return Readable.from(chunks(), { objectMode: false, highWaterMark: 64 * 1024 });
}

/**
 * XLSX with exceljs's streaming writer (`xlsxDownload`): each row is committed (written and dropped) as
 * it comes, no shared string table, and the next batch is fetched only once the sheet's XML written so far
 * has moved on towards the download. Memory stays flat whatever the number of rows; a client that goes
 * away ends the loop, which rolls the cursor back at once.
 */
function xlsxStream(db: Kysely<DB>, query: CompiledQuery, onError: (error: unknown) => void): Readable {
  const text = (cell: string | number | boolean | null) => (typeof cell === 'string' ? formulaSafe(cell) : cell);
  return xlsxDownload('Risk register', REGISTER_COLUMNS, cursorBatches<RegisterRow>(db, query, BATCH), (row) => toRegisterCells(row).map(text), onError);
}

export function streamRegister(db: Kysely<DB>, query: CompiledQuery, format: RegisterFormat, onError: (error: unknown) => void): Readable {
  return format === 'csv' ? csvStream(db, query, onError) : xlsxStream(db, query, onError);
}
