import type { Executor } from '../../../platform/db/schema.js';

/** The PostgreSQL store's rows (evidence_blobs): a file's content in numbered chunks. */

/** Consecutive chunks of one file, the first numbered `firstSeq`, in one statement. */
export async function insertBlobChunks(db: Executor, enterpriseId: string, key: string, firstSeq: number, chunks: readonly Buffer[]): Promise<void> {
  await db
    .insertInto('evidence_blobs')
    .values(chunks.map((data, index) => ({ enterprise_id: enterpriseId, blob_key: key, seq: firstSeq + index, data })))
    .execute();
}

/** Chunks `from` to `to` (both included), in order, at most `limit` of them. */
export async function readBlobChunks(db: Executor, enterpriseId: string, key: string, from: number, to: number, limit: number) {
  return db
    .selectFrom('evidence_blobs')
    .select(['seq', 'data'])
    .where('blob_key', '=', key)
    .where('enterprise_id', '=', enterpriseId)
    .where('seq', '>=', from)
    .where('seq', '<=', to)
    .orderBy('seq')
    .limit(limit)
    .execute();
}
