import { sql } from 'kysely';
import { directPoolOf } from '../../../platform/db/engine.js';
import type { Executor } from '../../../platform/db/schema.js';
import type { EvidenceBlobsTable } from '../../../platform/db/tables/evidence.js';

/** The PostgreSQL store's rows (evidence_blobs): a file's content in numbered chunks. */

/** A chunk as read back: its number and its bytes. */
export type BlobChunk = Pick<EvidenceBlobsTable, 'seq' | 'data'>;

/**
 * Consecutive chunks of one file, the first numbered `firstSeq`, in one statement: `content` goes as one
 * bytea parameter and the database cuts it into chunks of `chunkBytes`. One parameter, because the driver
 * copies every parameter into a message buffer that it grows by half again each time one does not fit:
 * sixteen chunks as sixteen parameters cost six buffers and three times their size, one parameter a single
 * buffer of its size.
 */
export async function insertBlobChunks(db: Executor, enterpriseId: string, key: string, firstSeq: number, content: Buffer, chunkBytes: number): Promise<void> {
  const chunks = Math.ceil(content.length / chunkBytes);
  await sql`
    insert into evidence_blobs (enterprise_id, blob_key, seq, data)
    select ${enterpriseId}::uuid, ${key}::uuid, ${firstSeq}::integer + piece, substring(whole.data from piece * ${chunkBytes} + 1 for ${chunkBytes})
    from (select ${content}::bytea as data) as whole, generate_series(0, ${chunks - 1}::integer) as piece`.execute(db);
}

/**
 * Chunks `from` to `to` (both included), in order, at most `limit` of them.
 *
 * On the database itself the statement (Kysely's, compiled) goes to the pg pool with a callback, and the
 * promise awaited is this function's own. On Node 20 a result handed over through pg's promise for a query
 * outlives the young generation's collections (measured; one handed to a callback does not), so that its
 * chunks are promoted and wait for a full collection, which external memory starts only tens of megabytes
 * later: a 200 MB download grew the service by 32 to 63 MB through Kysely (pg's promise), by 0 to 17 MB
 * through the callback (the evidence-memory suite). The statement is the one Kysely would send (unnamed, in
 * one exchange). In a transaction, or behind PgBouncer (DATABASE_POOLER, where every statement takes
 * Kysely's path), it goes through Kysely.
 */
export function readBlobChunks(db: Executor, enterpriseId: string, key: string, from: number, to: number, limit: number): Promise<BlobChunk[]> {
  const query = db
    .selectFrom('evidence_blobs')
    .select(['seq', 'data'])
    .where('blob_key', '=', key)
    .where('enterprise_id', '=', enterpriseId)
    .where('seq', '>=', from)
    .where('seq', '<=', to)
    .orderBy('seq')
    .limit(limit)
    .compile();
  const pool = directPoolOf(db);
  if (pool === undefined) return db.executeQuery(query).then((result) => result.rows);
  // Not an async function: its promise would be another one resolved with this one.
  return new Promise((resolve, reject) => {
    pool.query<BlobChunk>({ text: query.sql, values: [...query.parameters] }, (error, result) => (error ? reject(error) : resolve(result.rows)));
  });
}
