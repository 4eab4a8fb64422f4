import type { ByteRange, EvidenceStore } from './evidence-store.js';
import { insertBlobChunks, readBlobChunks } from './postgres-blobs.repository.js';

/**
 * A chunk's size. The driver receives bytea as hex text, twice the chunk's size: at 32 KiB that text stays
 * among V8's ordinary young objects, which are collected as they go, where larger ones would pile up in the
 * large-object space until a full collection (measured: a 200 MB upload and download grew the service by
 * 70 MB with 256 KiB chunks; the evidence-memory suite holds each under 30).
 */
export const CHUNK_BYTES = 32 * 1024;

/** Chunks written per statement: half a megabyte a round trip, copied into one reused buffer. */
const CHUNKS_PER_STATEMENT = 16;

/**
 * Chunks read per statement: half a megabyte a round trip too. Fewer would cost more than round trips: the
 * driver drops the buffer it assembles rows in at the end of every answer and allocates another (128 or
 * 256 KiB) for the next one, at 4 chunks a statement as much again as the chunks read.
 */
const CHUNKS_PER_READ = 16;

/**
 * Cuts a stream of pieces of any size into batches of CHUNKS_PER_STATEMENT whole chunks (the last batch
 * shorter), copied into one buffer that is reused for every batch: nothing is allocated per piece, so the
 * upload leaves no garbage of its own beside what the socket reads. A batch is valid until the next one is
 * asked for (the caller writes it before asking).
 */
async function* inBatches(content: AsyncIterable<Buffer>): AsyncIterable<Buffer> {
  const space = Buffer.allocUnsafe(CHUNK_BYTES * CHUNKS_PER_STATEMENT);
  let filled = 0;
  for await (const piece of content) {
    for (let from = 0; from < piece.length; ) {
      const copied = piece.copy(space, filled, from);
      filled += copied;
      from += copied;
      if (filled === space.length) {
        yield space;
        filled = 0;
      }
    }
  }
  if (filled > 0) yield space.subarray(0, filled);
}

/**
 * The default store: content in the database beside its metadata, so that the embedded engine and one
 * backup hold everything. A chunk is inserted as soon as it is complete, in the upload's transaction.
 */
export const postgresStore: EvidenceStore = {
  kind: 'postgres',

  async put(db, enterpriseId, key, content) {
    let seq = 0;
    for await (const batch of inBatches(content)) {
      await insertBlobChunks(db, enterpriseId, key, seq, batch, CHUNK_BYTES);
      seq += Math.ceil(batch.length / CHUNK_BYTES);
    }
  },

  async *get(db, enterpriseId, key, range: ByteRange | null) {
    const first = range === null ? 0 : Math.floor(range.start / CHUNK_BYTES);
    const last = range === null ? Number.MAX_SAFE_INTEGER : Math.floor(range.end / CHUNK_BYTES);
    for (let next = first; next <= last; ) {
      const rows = await readBlobChunks(db, enterpriseId, key, next, Math.min(last, 2 ** 31 - 1), CHUNKS_PER_READ);
      if (rows.length === 0) return;
      for (const row of rows) {
        const offset = row.seq * CHUNK_BYTES;
        const from = range === null ? 0 : Math.max(0, range.start - offset);
        const to = range === null ? row.data.length : Math.min(row.data.length, range.end - offset + 1);
        yield row.data.subarray(from, to);
      }
      next = rows.at(-1)!.seq + 1;
    }
  },

  async discard() {
    // The chunks were written in the upload's transaction, which rolled back.
  },
};
