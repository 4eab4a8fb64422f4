import { Readable } from 'node:stream';
import type { Compilable, Kysely } from 'kysely';
import { cursorBatches } from '../../platform/export/cursor.js';
import type { DB } from '../../platform/db/schema.js';
import { ACTOR_AND_TARGET, ENTRY_COLUMNS } from './audit-trail.repository.js';
import { csvRow } from '../../platform/export/csv-cell.js';

/** D7.6: the CSV columns, in this order. */
export const CSV_COLUMNS = [
  'id',
  'created_at',
  ...ACTOR_AND_TARGET,
  'status',
  'ip_address',
  'user_agent',
  'action_details',
] as const;

/** The JSON members of an entry: the columns GET /audit renders, in the order of interface 2.9. */
const JSON_MEMBERS = ENTRY_COLUMNS;

export type ExportFormat = 'json' | 'csv';

export const exportContentType = (format: ExportFormat) =>
  format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8';

export const exportFileName = (format: ExportFormat, now: Date) =>
  `audit-export-${now.toISOString().slice(0, 10).replace(/-/g, '')}.${format}`;

type Row = Record<string, unknown>;

const jsonEntry = (row: Row) =>
  JSON.stringify(Object.fromEntries(JSON_MEMBERS.map((member) => [member, row[member] ?? null])));

/** Renders batches of rows: the opening (header row or `[`), each batch, and the closing. */
export function exportRenderer(format: ExportFormat) {
  let first = true;
  if (format === 'csv') {
    return {
      open: () => csvRow(CSV_COLUMNS),
      batch: (rows: Row[]) => rows.map((row) => csvRow(CSV_COLUMNS.map((column) => row[column]))).join(''),
      close: () => '',
    };
  }
  return {
    open: () => '[',
    batch: (rows: Row[]) => {
      const text = rows.map(jsonEntry).join(',');
      const out = first || rows.length === 0 ? text : `,${text}`;
      if (rows.length > 0) first = false;
      return out;
    },
    close: () => ']',
  };
}

/**
 * Streams a query's rows as the export file, batch by batch from a cursor (platform/db/cursor.ts), with
 * Readable back-pressure (64 KiB high-water mark): memory stays flat whatever the number of rows.
 */
export function streamExport(db: Kysely<DB>, query: Compilable, format: ExportFormat, onError: (error: unknown) => void): Readable {
  const render = exportRenderer(format);
  async function* chunks(): AsyncGenerator<string> {
    yield render.open();
    for await (const rows of cursorBatches<Row>(db, query, undefined, onError)) {
      // Rows are rendered at once and dropped before waiting on the socket: only a small piece of text
      // outlives the wait, so nothing per row survives into V8's old generation and memory stays flat.
      const piece = rows.length > 0 ? render.batch(rows) : '';
      rows.length = 0;
      if (piece !== '') yield piece;
    }
    yield render.close();
  }
  return Readable.from(chunks(), { objectMode: false, highWaterMark: 64 * 1024 });
}
