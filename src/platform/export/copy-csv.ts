import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { CompiledQuery } from 'kysely';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { csvCell } from './csv-cell.js';

// The bytes the scans look for: CSV's, then those of jsonb's text.
const QUOTE = 0x22, COMMA = 0x2c, LF = 0x0a, CR = 0x0d;
const SPACE = 0x20, BACKSLASH = 0x5c, COLON = 0x3a, MINUS = 0x2d, DOT = 0x2e, ZERO = 0x30, NINE = 0x39, OPEN_BRACE = 0x7b, OPEN_BRACKET = 0x5b;

/**
 * PostgreSQL's CSV (COPY … TO STDOUT WITH (FORMAT csv, HEADER)) as the exports' CSV (csv-cell.ts): the server
 * quotes a cell exactly as csvCell does (", comma, CR or LF inside: quoted, " doubled), so only two things are
 * left to this pass, which never holds more than the current chunk and the row it ends in the middle of:
 *  - records end with CRLF (RFC 4180) where COPY writes LF; an LF outside quotes is a record's end;
 *  - with `jsonLastColumn`, the last cell of every record but the header is the text of a jsonb value, which
 *    becomes what csvCell makes of that value once parsed (compact JSON text; a scalar's own text): the same
 *    bytes as a row rendered in JavaScript from the value pg parses. Most cells get there without parsing
 *    (compactJsonCell).
 * Empty text cells: COPY quotes one (""), csvCell does not; the query gives NULL for them (copy-csv's callers).
 */
export class CopyCsvLines extends Transform {
  /** The end of the last chunk, from the start of a record it cut: scanned again with the next chunk. */
  private carry: Buffer | null = null;
  /** COPY's first record is the header (copyCsvStatement asks for it): it gives the number of columns. */
  private header = true;
  /** The commas before a record's last cell (the header's, counted outside quotes). */
  private commasBeforeLast = -1;

  constructor(private readonly jsonLastColumn: boolean) {
    super({ highWaterMark: 64 * 1024 });
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    try {
      const input = this.carry === null ? chunk : Buffer.concat([this.carry, chunk]);
      const length = input.length;
      // Each record grows by its CR at most, and by one ' for a scalar starting with "-": records have 9
      // commas at least, so a quarter more is room enough.
      const out = Buffer.allocUnsafe(length + (length >> 2) + 16);
      let written = 0;
      let rowStart = 0;
      while (rowStart < length) {
        const json = this.jsonLastColumn && !this.header ? this.jsonRecord(input, rowStart, out, written) : -1;
        if (json >= 0) {
          written += json;
        } else {
          const end = recordEnd(input, rowStart);
          if (end < 0) break;
          if (json === JSON_CELL_PARSED) {
            const cellStart = lastCellStart(input, rowStart, this.commasBeforeLast);
            written += input.copy(out, written, rowStart, cellStart);
            written += out.write(jsonCell(input.toString('utf8', cellStart, end)), written);
          } else {
            if (this.header) this.commasBeforeLast = commasOutsideQuotes(input, rowStart, end);
            written += input.copy(out, written, rowStart, end);
          }
          out[written++] = CR;
          out[written++] = LF;
          this.header = false;
          this.recordLength = end + 1 - rowStart;
        }
        rowStart += this.recordLength;
      }
      this.carry = rowStart < length ? input.subarray(rowStart) : null;
      done(null, written > 0 ? out.subarray(0, written) : undefined);
    } catch (error) {
      done(error as Error);
    }
  }

  /** The length of the record jsonRecord or _transform last wrote, LF included. */
  private recordLength = 0;

  /**
   * One record whose last cell is jsonb's text, written to `out` at `at` with that cell compacted (compactJsonCell)
   * and CRLF: the bytes written (the record's length in `recordLength`), or INCOMPLETE (the chunk ends within
   * the record) or JSON_CELL_PARSED (the cell is one only parsing renders: _transform does it).
   */
  private jsonRecord(input: Buffer, rowStart: number, out: Buffer, at: number): number {
    const cellStart = lastCellStart(input, rowStart, this.commasBeforeLast);
    if (cellStart < 0) return INCOMPLETE;
    const prefix = input.copy(out, at, rowStart, cellStart);
    const cell = compactJsonCell(input, cellStart, out, at + prefix);
    if (cell.end < 0) return cell.end;
    let written = at + prefix + cell.written;
    out[written++] = CR;
    out[written++] = LF;
    this.recordLength = cell.end + 1 - rowStart;
    return written - at;
  }

  override _flush(done: TransformCallback): void {
    // COPY ends every record with LF: anything left is a record cut short, which no complete export has.
    done(this.carry === null ? null : new Error('CSV from COPY ended within a record'));
  }
}

/** compactJsonCell's answers other than a cell's end: the chunk ends within the cell; the cell needs parsing. */
const INCOMPLETE = -1;
const JSON_CELL_PARSED = -2;

/** The LF that ends the record starting at `from` (the first outside quotes), or INCOMPLETE. */
function recordEnd(input: Buffer, from: number): number {
  let quoted = false;
  for (let at = from; at < input.length; at += 1) {
    const byte = input[at]!;
    if (byte === QUOTE) quoted = !quoted;
    else if (byte === LF && !quoted) return at;
  }
  return INCOMPLETE;
}

/** The commas outside quotes between `from` and `to`. */
function commasOutsideQuotes(input: Buffer, from: number, to: number): number {
  let quoted = false;
  let commas = 0;
  for (let at = from; at < to; at += 1) {
    const byte = input[at]!;
    if (byte === QUOTE) quoted = !quoted;
    else if (byte === COMMA && !quoted) commas += 1;
  }
  return commas;
}

/** Where the last cell of the record starting at `from` starts: after its `commas`-th comma outside quotes. */
function lastCellStart(input: Buffer, from: number, commas: number): number {
  let quoted = false;
  let seen = 0;
  for (let at = from; at < input.length; at += 1) {
    const byte = input[at]!;
    if (byte === QUOTE) quoted = !quoted;
    else if (byte === COMMA && !quoted && ++seen === commas) return at + 1;
  }
  return INCOMPLETE;
}

/** compactJsonCell's answer: the index of the LF after the cell (or INCOMPLETE, JSON_CELL_PARSED) and the bytes written. */
const compacted = { end: 0, written: 0 };

/**
 * The fast path of jsonCell, on the bytes of a record's last cell, from `start` to the record's LF: an object
 * or array as COPY's CSV gives jsonb's text (quoted, each " doubled) written to `out` at `at` as
 * JSON.stringify writes the parsed value, which differs from jsonb's text only by the space jsonb writes after
 * every `:` and `,`. The quoting stays right: the spaces removed never made a cell quoted. The cell's bytes are
 * read once: the scan that compacts them is the one that finds the record's end. Answers (in `compacted`) the
 * LF's index and the bytes written; INCOMPLETE when the chunk ends first; JSON_CELL_PARSED (nothing kept of
 * what was written) for the cells where only parsing gives JavaScript's text:
 *  - not an object or array (a scalar: csvCell's formula guard and unquoting apply);
 *  - a number that JavaScript writes otherwise (writtenOtherwise);
 *  - a key that is an array index ("0", "7", "42", …), which JavaScript's objects put first, in numeric order,
 *    where jsonb orders keys by length and bytes.
 * Bytes of multi-byte UTF-8 characters are all ≥ 0x80, so no byte of one is taken for a quote, a space or a digit.
 */
function compactJsonCell(input: Buffer, start: number, out: Buffer, at: number): typeof compacted {
  const length = input.length;
  compacted.written = 0;
  if (start >= length) return answer(INCOMPLETE);
  if (input[start] !== QUOTE) {
    // Unquoted: no string and no comma. `{}` and `[]` are already JavaScript's; anything else (`[1.50]`, a
    // scalar) is left to parsing.
    const end = input.indexOf(LF, start);
    if (end < 0) return answer(INCOMPLETE);
    const empty = end - start === 2 && (input[start] === OPEN_BRACE || input[start] === OPEN_BRACKET);
    if (!empty) return answer(JSON_CELL_PARSED);
    compacted.written = input.copy(out, at, start, end);
    return answer(end);
  }
  if (start + 1 >= length) return answer(INCOMPLETE);
  const first = input[start + 1];
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) return answer(JSON_CELL_PARSED);
  let written = at;
  out[written++] = QUOTE;
  let inString = false;
  let escaped = false;
  let stringStart = 0;
  let numberStart = -1;
  for (let i = start + 1; i < length; i += 1) {
    const byte = input[i]!;
    if (byte === QUOTE) {
      if (i + 1 >= length) return answer(INCOMPLETE);
      if (input[i + 1] !== QUOTE) {
        // The cell's closing quote (a JSON text ends with } or ], never within a number): the record ends.
        out[written++] = QUOTE;
        compacted.written = written - at;
        return answer(i + 1);
      }
      // A quote of the JSON text, doubled by the CSV.
      if (inString && escaped) escaped = false;
      else if (inString) {
        inString = false;
        if (i + 2 >= length) return answer(INCOMPLETE);
        if (input[i + 2] === COLON && isArrayIndex(input, stringStart, i)) return answer(JSON_CELL_PARSED);
      } else {
        inString = true;
        stringStart = i + 2;
      }
      out[written++] = QUOTE;
      out[written++] = QUOTE;
      i += 1;
      continue;
    }
    if (inString) {
      escaped = !escaped && byte === BACKSLASH;
      out[written++] = byte;
      continue;
    }
    const numeric = byte === MINUS || byte === DOT || (byte >= ZERO && byte <= NINE);
    if (numeric && numberStart < 0) numberStart = i;
    else if (!numeric && numberStart >= 0) {
      if (writtenOtherwise(input, numberStart, i)) return answer(JSON_CELL_PARSED);
      numberStart = -1;
    }
    if (byte !== SPACE) out[written++] = byte;
  }
  return answer(INCOMPLETE);
}

function answer(end: number): typeof compacted {
  compacted.end = end;
  return compacted;
}

/** Whether JavaScript orders the key (bytes `from` to `to`) as an array index: "0" or digits not starting with 0. */
function isArrayIndex(input: Buffer, from: number, to: number): boolean {
  const length = to - from;
  if (length === 0 || length > 10 || (length > 1 && input[from] === ZERO)) return false;
  for (let i = from; i < to; i += 1) if (input[i]! < ZERO || input[i]! > NINE) return false;
  return length < 10 || Number(input.toString('latin1', from, to)) <= 4294967294;
}

/**
 * Whether JavaScript writes the number (jsonb's text, bytes `from` to `to`) otherwise than jsonb: in exponent
 * form (≥ 1e21, or below 1e-6), without the trailing zeros of a decimal jsonb keeps (1.50, 2.0), or rounded to
 * a double's shortest text (more than 15 significant digits). The writer's numbers come from JavaScript and
 * pass; numbers written by SQL may not.
 */
function writtenOtherwise(input: Buffer, from: number, to: number): boolean {
  let decimal = false;
  let seenNonZero = false;
  let significant = 0;
  let zerosAfterPoint = 0;
  for (let at = input[from] === MINUS ? from + 1 : from; at < to; at += 1) {
    const byte = input[at]!;
    if (byte === DOT) decimal = true;
    else {
      if (byte !== ZERO) seenNonZero = true;
      if (seenNonZero) significant += 1;
      else if (decimal) zerosAfterPoint += 1;
    }
  }
  if (significant > 15) return true;
  if (decimal && input[to - 1] === ZERO) return true;
  return seenNonZero && zerosAfterPoint >= 6;
}

/** A jsonb value's text as COPY's CSV cell gives it, as csvCell renders the value. */
function jsonCell(cell: string): string {
  if (cell === '') return '';
  const text = cell.charCodeAt(0) === QUOTE ? cell.slice(1, -1).replaceAll('""', '"') : cell;
  return csvCell(JSON.parse(text));
}

/**
 * `COPY (query) TO STDOUT WITH (FORMAT csv, HEADER)`. COPY takes no bound parameters, so each of the query's
 * is written into the statement as a literal: a string through pg's escapeLiteral (quotes and backslashes
 * escaped), a number only if it is a safe integer; anything else is refused, never written as it is.
 */
export function copyCsvStatement(query: CompiledQuery): string {
  const literals = query.parameters.map((value, index) => {
    if (typeof value === 'string') return pg.escapeLiteral(value);
    if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
    throw new Error(`copyCsvStatement: parameter ${index + 1} is neither a string nor a safe integer`);
  });
  // Kysely numbers its parameters $1, $2, … and writes no other $ outside the values it binds.
  const text = query.sql.replace(/\$(\d+)/g, (_, n: string) => literals[Number(n) - 1]!);
  return `copy (${text}) to stdout with (format csv, header)`;
}

/**
 * Streams `copySql` (a `COPY (…) TO STDOUT WITH (FORMAT csv, HEADER)` whose values are written into it: COPY
 * takes no bound parameters) on a client of `pool`, through CopyCsvLines. The client is held for the one
 * statement and given back when it ends; if the stream fails or is destroyed before (the client gone away),
 * the connection is closed rather than given back in the middle of a COPY, which ends the statement on the
 * server at once, and the pool opens a fresh one when it needs it. `onError` hears a failure (a stream that
 * breaks half-way has no answer left to carry it).
 */
export function streamCopyCsv(
  pool: pg.Pool,
  copySql: string,
  options: { jsonLastColumn: boolean; onError: (error: unknown) => void },
): CopyCsvLines {
  const lines = new CopyCsvLines(options.jsonLastColumn);
  void (async () => {
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      options.onError(error);
      lines.destroy(error as Error);
      return;
    }
    if (lines.destroyed) {
      client.release();
      return;
    }
    const copy = client.query(copyTo(copySql));
    // The connection's end (below) may still report to the COPY stream after the pipeline has let go of it.
    copy.on('error', () => undefined);
    try {
      await pipeline(copy, lines);
      client.release();
    } catch (error) {
      client.release(error as Error);
      // A client that went away is no failure of the export.
      if ((error as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') options.onError(error);
    }
  })();
  return lines;
}
