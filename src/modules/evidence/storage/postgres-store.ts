import type { ByteRange, EvidenceStore } from './evidence-store.js';
import { insertBlobChunk, readBlobChunks } from './postgres-blobs.repository.js';

/** A chunk's size: large enough that a 200 MB file is 800 rows, small enough that a read holds little. */
export const CHUNK_BYTES = 256 * 1024;

/** Chunks fetched per statement when reading: 1 MiB at a time. */
const CHUNKS_PER_READ = 4;

/** Cuts a stream of pieces of any size into chunks of exactly CHUNK_BYTES (the last one shorter). */
async function* inChunks(content: AsyncIterable<Buffer>): AsyncIterable<Buffer> {
  let pending: Buffer[] = [];
  let size = 0;
  for await (const piece of content) {
    pending.push(piece);
    size += piece.length;
    while (size >= CHUNK_BYTES) {
      const joined = Buffer.concat(pending, size);
      yield joined.subarray(0, CHUNK_BYTES);
      pending = [joined.subarray(CHUNK_BYTES)];
      size -= CHUNK_BYTES;
    }
  }
  if (size > 0) yield Buffer.concat(pending, size);
}

/**
 * The default store: content in the database beside its metadata, so that the embedded engine and one
 * backup hold everything. A chunk is inserted as soon as it is complete, in the upload's transaction.
 */
export const postgresStore: EvidenceStore = {
  kind: 'postgres',

  async put(db, enterpriseId, key, content) {
    let seq = 0;
    for await (const chunk of inChunks(content)) await insertBlobChunk(db, enterpriseId, key, seq++, chunk);
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
