import { createHash } from 'node:crypto';
import type { Executor } from '../../platform/db/schema.js';
import { filesWithRecordedHash } from './evidence.repository.js';
import type { EvidenceStore } from './storage/evidence-store.js';

export interface AlteredFile {
  id: string;
  name: string;
  /** What the upload's audit entry recorded; null: no upload entry names the file. */
  recorded_sha256: string | null;
  /** What the stored content hashes to now. */
  stored_sha256: string;
}

export interface EvidenceIntegrity {
  files_checked: number;
  altered: AlteredFile[];
}

const BATCH = 200;

/**
 * Every evidence file of the enterprise hashed again, content streamed from its store, and compared with the
 * SHA-256 its upload's audit entry recorded: the chain protects the entry, so content swapped or rewritten
 * under the service shows here. One file's content in memory a chunk at a time.
 */
export async function checkEvidenceIntegrity(db: Executor, store: EvidenceStore, enterpriseId: string): Promise<EvidenceIntegrity> {
  const altered: AlteredFile[] = [];
  let checked = 0;
  for (let after: string | null = null; ; ) {
    const files = await filesWithRecordedHash(db, enterpriseId, after, BATCH);
    for (const file of files) {
      const hash = createHash('sha256');
      for await (const chunk of store.get(db, enterpriseId, file.storage_key, null)) hash.update(chunk);
      const stored = hash.digest('hex');
      checked += 1;
      if (stored !== file.recorded_sha256) altered.push({ id: file.id, name: file.name, recorded_sha256: file.recorded_sha256, stored_sha256: stored });
    }
    if (files.length < BATCH) break;
    after = files.at(-1)!.id;
  }
  return { files_checked: checked, altered };
}
