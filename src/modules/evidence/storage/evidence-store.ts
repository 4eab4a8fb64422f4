import type { Executor } from '../../../platform/db/schema.js';
import type { EvidenceStorage } from '../../../platform/db/tables/evidence.js';

/** Bytes `start` to `end` of a file, both included (as an HTTP Range names them). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where evidence content is kept (issue 48), behind the one interface the evidence service uses. A store
 * only keeps bytes under a key: counting, hashing, limits and types are the service's, once for every store.
 * Content is written as it streams in and read back as it streams out, never whole in memory.
 */
export interface EvidenceStore {
  readonly kind: EvidenceStorage;
  /**
   * Keeps `content` under `key`. `db` is the upload's transaction: a store in the database writes in it (a
   * refused upload rolls back with it); an object store ignores it and is told to `discard` instead.
   */
  put(db: Executor, enterpriseId: string, key: string, content: AsyncIterable<Buffer>): Promise<void>;
  /** The content under `key`, whole or the range given. */
  get(db: Executor, enterpriseId: string, key: string, range: ByteRange | null): AsyncIterable<Buffer>;
  /** Removes what a failed upload left under `key` (the object store's cleanup; nothing to do in the database). */
  discard(enterpriseId: string, key: string): Promise<void>;
}
