import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import { requireControlsReader } from '../controls.policy.js';
import type { Caller } from '../../../platform/auth/principal.js';
import { cursorBatches } from '../../../platform/export/cursor.js';
import { xlsxDownload } from '../../../platform/export/xlsx-stream.js';
import type { DB, Executor } from '../../../platform/db/schema.js';
import { LIBRARY_COLUMNS, encodeCell, libraryCsvHeader, libraryCsvRow, type LibraryRecord } from './library-file.js';
import { libraryExportQuery } from './library.repository.js';

export type LibraryFormat = 'csv' | 'xlsx';

export const LIBRARY_CONTENT_TYPES: Record<LibraryFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** CSV: a header, then each batch of rows rendered at once, with Readable back-pressure. */
function csvStream(batches: AsyncIterable<LibraryRecord[]>): Readable {
  async function* chunks(): AsyncGenerator<string> {
    yield libraryCsvHeader();
    for await (const rows of batches) if (rows.length > 0) yield rows.map(libraryCsvRow).join('');
  }
  return Readable.from(chunks(), { objectMode: false, highWaterMark: 64 * 1024 });
}

/**
 * XLSX through the platform's streaming sheet (`xlsxDownload`): each row is committed as it comes from
 * the cursor, every cell a string cell encoded as in the CSV (so the file survives a round trip through a
 * spreadsheet), and the next batch is fetched only once the XML written so far has moved on towards the
 * download, so memory stays flat however large the library. A failure half-way destroys the response stream;
 * a client that closes the download ends the loop quietly.
 */
function xlsxStream(batches: AsyncIterable<LibraryRecord[]>, onError: (error: unknown) => void): Readable {
  return xlsxDownload('Control library', LIBRARY_COLUMNS, batches, (record) => LIBRARY_COLUMNS.map((column) => encodeCell(record[column])), onError);
}

/**
 * GET /controls/export: the active library as a file any member may download (they all read it), in
 * the import's format, read through a cursor in one consistent snapshot.
 */
export function createLibraryExportService({ db, onExportError }: { db: Executor; onExportError: (error: unknown) => void }) {
  return {
    export(caller: Caller, format: LibraryFormat, now = new Date()) {
      requireControlsReader(caller);
      // Read-only and bound to the database: the cursor opens a transaction of its own.
      const batches = cursorBatches<LibraryRecord>(db as Kysely<DB>, libraryExportQuery(db, caller.enterpriseId), undefined, onExportError);
      return {
        stream: format === 'csv' ? csvStream(batches) : xlsxStream(batches, onExportError),
        contentType: LIBRARY_CONTENT_TYPES[format],
        fileName: `control-library-${now.toISOString().slice(0, 10).replace(/-/g, '')}.${format}`,
      };
    },
  };
}

export type LibraryExportService = ReturnType<typeof createLibraryExportService>;
