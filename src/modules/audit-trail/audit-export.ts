import { Readable } from 'node:stream';
import type { Compilable, Kysely } from 'kysely';
import { cursorBatches } from '../../platform/export/cursor.js';
import type { DB } from '../../platform/db/schema.js';
import { ACTOR_AND_TARGET, ENTRY_COLUMNS } from './audit-trail.repository.js';
import { copyCsvStatement, streamCopyCsv } from '../../platform/export/copy-csv.js';
import { poolOf } from '../../platform/db/engine.js';

/** D7.6: the CSV columns, in this order (csvExportQuery selects them so, action_details last). */
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

/** Renders batches of rows as the JSON export: the opening `[`, each batch, and the closing `]`. */
export function jsonRenderer() {
  let first = true;
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
 * Streams a query's rows as the JSON export, batch by batch from a cursor (platform/db/cursor.ts), with
 * Readable back-pressure (64 KiB high-water mark): memory stays flat whatever the number of rows.
 */
export function streamJsonExport(db: Kysely<DB>, query: Compilable, onError: (error: unknown) => void): Readable {
  const render = jsonRenderer();
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

/**
 * Streams the CSV export at the speed of COPY: `COPY (query) TO STDOUT` on a connection of the database's
 * pool, the server writing and quoting the cells (the query gives each cell's text, csvExportQuery) and
 * platform/export/copy-csv.ts ending records with CRLF and rendering action_details, the last column. One
 * statement: one snapshot, no transaction to hold open. A client that goes away closes the connection, which
 * ends the COPY on the server.
 */
export function streamCsvExport(db: Kysely<DB>, query: Compilable, onError: (error: unknown) => void): Readable {
  const pool = poolOf(db);
  if (pool === undefined) throw new Error('the CSV export needs a database with a pool of its own');
  return streamCopyCsv(pool, copyCsvStatement(query.compile()), { jsonLastColumn: true, onError });
}
