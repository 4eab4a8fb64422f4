import type { Executor } from '../../../platform/db/schema.js';

/** The PostgreSQL store's rows (evidence_blobs): a file's content in numbered chunks. */

export async function insertBlobChunk(db: Executor, enterpriseId: string, key: string, seq: number, data: Buffer): Promise<void> {
  await db.insertInto('evidence_blobs').values({ enterprise_id: enterpriseId, blob_key: key, seq, data }).execute();
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
