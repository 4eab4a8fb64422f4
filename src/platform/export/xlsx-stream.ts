import { PassThrough, Transform, type Readable, type TransformCallback, type Writable } from 'node:stream';
import ExcelJS from 'exceljs';

/**
 * An XLSX download of one sheet written as it streams, in constant memory, with exceljs's streaming writer.
 *
 * exceljs commits each row to the part of the archive that holds the sheet's XML, but its own part stream
 * passes everything on to the archive without ever saying "wait", and the archive deflates more slowly than
 * rows come from a cursor: the XML not yet deflated piled up in memory (about a third of a kilobyte per
 * row). Here each part of the archive is a stream of ours that takes back-pressure (`room()` waits until it
 * has passed on what it holds, which the archive only takes as fast as the download drains), so no more
 * than a few chunks of XML wait at any time, whatever the number of rows.
 *
 * Relies on one internal of exceljs 4 (checked at construction): the streaming workbook opens each part
 * through `_openStream(path)`, writes to it strings, Buffers or its StringBuf (which has `toBuffer()`),
 * ends it, and waits for a `zipped` event after it finishes.
 */

/** What exceljs writes to a part stream. */
type Piece = string | Buffer | { toBuffer(): Buffer };

/** The deflater gets the XML in chunks of this size (one per call rather than one per row). */
const CHUNK = 64 * 1024;

const asBuffer = (piece: Piece): Buffer =>
  typeof piece === 'string' ? Buffer.from(piece, 'utf8') : Buffer.isBuffer(piece) ? piece : piece.toBuffer();

/** One part of the archive: pieces gathered into chunks, holding at most about one chunk before it says "wait". */
class PartStream extends Transform {
  private pieces: Buffer[] = [];
  private size = 0;

  /** Bytes written and not yet taken by the archive. */
  get pending(): number {
    return this.writableLength + this.size + this.readableLength;
  }

  constructor() {
    super({ highWaterMark: CHUNK });
    // What the streaming workbook waits for before it writes the parts that follow a sheet.
    this.once('finish', () => this.emit('zipped'));
  }

  override write(piece: unknown, ...rest: unknown[]): boolean {
    return (super.write as (...args: unknown[]) => boolean).call(this, asBuffer(piece as Piece), ...rest);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.pieces.push(chunk);
    this.size += chunk.length;
    if (this.size >= CHUNK) this.pushPieces();
    done();
  }

  override _flush(done: TransformCallback): void {
    if (this.size > 0) this.pushPieces();
    done();
  }

  private pushPieces(): void {
    this.push(this.pieces.length === 1 ? this.pieces[0] : Buffer.concat(this.pieces, this.size));
    this.pieces = [];
    this.size = 0;
  }
}

type Cell = string | number | boolean | null;

interface InternalWorkbookWriter {
  _openStream(path: string): unknown;
  zip: { append(source: unknown, data: { name: string }): void; abort(): void; on(event: 'error', listener: (error: Error) => void): void };
}

export interface XlsxSheetStream {
  /** Writes one row (and lets it go). */
  addRow(cells: readonly Cell[]): void;
  /** Resolves once what is written has moved on towards the download, or the download is gone. */
  room(): Promise<void>;
  /** Bytes of XML written and not yet taken by the archive's deflater: a few chunks at most after `room()`. */
  readonly pending: number;
  /** The download has gone (closed by the client, or failed): stop writing. */
  readonly gone: boolean;
  /** The archive's own failure, when that is why the download has gone. */
  readonly failure: Error | undefined;
  /** Ends the sheet and the workbook. */
  finish(): Promise<void>;
}

/**
 * A workbook of one sheet written to `out` as it streams: no shared string table and no styles (both
 * would grow with the rows), each part deflated at level 1 (the archiver's own default, stated so that it
 * stays: level 6 makes the file a fifth smaller, level 9 a quarter smaller and five times slower; memory is
 * the same at every level, as the XML now waits for the deflater).
 */
export function xlsxSheetStream(out: Writable, sheetName: string): XlsxSheetStream {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false, zip: { zlib: { level: 1 } } });
  const internal = workbook as unknown as InternalWorkbookWriter;
  if (typeof internal._openStream !== 'function' || typeof internal.zip?.append !== 'function') {
    throw new Error('exceljs streaming writer without _openStream: the XLSX export needs exceljs 4');
  }
  const parts: PartStream[] = [];
  internal._openStream = (path: string) => {
    const part = new PartStream();
    internal.zip.append(part, { name: path });
    parts.push(part);
    return part;
  };
  let left = false;
  let failure: Error | undefined;
  const leave = () => {
    if (left) return;
    left = true;
    internal.zip.abort();
  };
  const gone = () => left || out.destroyed;
  out.once('close', leave);
  internal.zip.on('error', (error) => {
    if (left) return; // the archive aborted because the download went away
    failure = error;
    leave();
    out.destroy(error);
  });
  const sheet = workbook.addWorksheet(sheetName);

  return {
    addRow(cells) {
      sheet.addRow([...cells]).commit();
    },
    async room() {
      for (const part of parts) {
        if (gone()) return;
        if (!part.writableNeedDrain) continue;
        await new Promise<void>((resolve) => {
          const done = () => {
            part.off('drain', done);
            out.off('close', done);
            resolve();
          };
          part.on('drain', done);
          out.on('close', done);
        });
      }
    },
    get pending() {
      return parts.reduce((sum, part) => sum + part.pending, 0);
    },
    get gone() {
      return gone();
    },
    get failure() {
      return failure;
    },
    async finish() {
      sheet.commit();
      await workbook.commit();
    },
  };
}

/**
 * A download of one sheet from batches of rows: the header row, then each row committed as it comes, and
 * the next batch fetched only once the XML written so far has moved on towards the download, so memory stays
 * flat however many rows. Each batch is emptied once written, so its rows can go. A failure half-way is told
 * to `onError` and destroys the download; a client that closes the download ends the loop quietly.
 */
export function xlsxDownload<Row>(
  sheetName: string,
  header: readonly Cell[],
  batches: AsyncIterable<Row[]>,
  cellsOf: (row: Row) => readonly Cell[],
  onError: (error: unknown) => void,
): Readable {
  const out = new PassThrough({ highWaterMark: 64 * 1024 });
  const sheet = xlsxSheetStream(out, sheetName);
  void (async () => {
    sheet.addRow([...header]);
    for await (const rows of batches) {
      for (const row of rows) sheet.addRow(cellsOf(row));
      rows.length = 0;
      await sheet.room();
      if (sheet.failure) throw sheet.failure;
      if (sheet.gone) return;
    }
    await sheet.finish();
  })().catch((error: unknown) => {
    if (sheet.gone && sheet.failure === undefined) return; // the client closed the download: nobody to tell
    onError(error);
    out.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return out;
}
