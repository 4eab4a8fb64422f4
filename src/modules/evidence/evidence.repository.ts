import { sql } from 'kysely';
import type { Executor } from '../../platform/db/schema.js';
import type { EvidenceRecordType, EvidenceStorage } from '../../platform/db/tables/evidence.js';

/** SQL of the evidence module: it writes `evidence_files` (and, through its PostgreSQL store, `evidence_blobs`). */

const FILE_COLUMNS = [
  'f.id',
  'f.record_type',
  'f.record_id',
  'f.name',
  'f.media_type',
  'f.size_bytes',
  'f.sha256',
  'f.storage',
  'f.storage_key',
  'f.created_by',
  'f.created_at',
  'f.removed_at',
  'u.full_name as created_by_name',
] as const;

function files(db: Executor, enterpriseId: string) {
  return db
    .selectFrom('evidence_files as f')
    .leftJoin('users as u', 'u.id', 'f.created_by')
    .select(FILE_COLUMNS)
    .where('f.enterprise_id', '=', enterpriseId);
}

export type EvidenceRow = NonNullable<Awaited<ReturnType<typeof findEvidence>>>;

/** A record's files, newest first (evidence_files_record_idx). */
export async function listEvidence(db: Executor, enterpriseId: string, type: EvidenceRecordType, recordId: string) {
  return files(db, enterpriseId)
    .where('f.record_type', '=', type)
    .where('f.record_id', '=', recordId)
    .where('f.removed_at', 'is', null)
    .orderBy('f.created_at', 'desc')
    .orderBy('f.id', 'desc')
    .execute();
}

/** One file of the enterprise, removed ones too (the caller decides what a removed file answers). */
export async function findEvidence(db: Executor, enterpriseId: string, evidenceId: string, lock = false) {
  let query = files(db, enterpriseId).where('f.id', '=', evidenceId);
  if (lock) query = query.forUpdate('f');
  return query.executeTakeFirst();
}

/** Bytes the enterprise keeps, removed files included (their content stays). */
export async function evidenceBytesOf(db: Executor, enterpriseId: string): Promise<number> {
  const row = await db
    .selectFrom('evidence_files')
    .select(sql<string>`coalesce(sum(size_bytes), 0)`.as('bytes'))
    .where('enterprise_id', '=', enterpriseId)
    .executeTakeFirstOrThrow();
  return Number(row.bytes);
}

/**
 * Serialises the enterprise's uploads at their end, for the quota: the count and the insert that follows are
 * seen by the next upload. Held to the transaction's end; streaming is never behind it.
 */
export async function lockEvidenceQuota(db: Executor, enterpriseId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`evidence-quota:${enterpriseId}`}, 0))`.execute(db);
}

export interface NewEvidence {
  record_type: EvidenceRecordType;
  record_id: string;
  name: string;
  media_type: string;
  size_bytes: number;
  sha256: string;
  storage: EvidenceStorage;
  storage_key: string;
  created_by: string;
}

export async function insertEvidence(db: Executor, enterpriseId: string, values: NewEvidence): Promise<string> {
  const row = await db.insertInto('evidence_files').values({ enterprise_id: enterpriseId, ...values }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function markEvidenceRemoved(db: Executor, enterpriseId: string, evidenceId: string, removedBy: string): Promise<void> {
  await db
    .updateTable('evidence_files')
    .set({ removed_at: sql`now()`, removed_by: removedBy })
    .where('enterprise_id', '=', enterpriseId)
    .where('id', '=', evidenceId)
    .execute();
}

/**
 * A batch of the enterprise's files (removed ones too: their content is kept) after `afterId`, each with the
 * SHA-256 its upload's audit entry recorded (null when no such entry exists).
 */
export async function filesWithRecordedHash(db: Executor, enterpriseId: string, afterId: string | null, limit: number) {
  let query = db
    .selectFrom('evidence_files as f')
    .leftJoin('audit_log as a', (join) =>
      join
        .onRef('a.enterprise_id', '=', 'f.enterprise_id')
        .on('a.entity_type', '=', 'evidence_file')
        .on('a.action_type', '=', 'create')
        .onRef('a.entity_id', '=', 'f.id'),
    )
    .select(['f.id', 'f.name', 'f.storage_key', sql<string | null>`a.action_details->>'sha256'`.as('recorded_sha256')])
    .where('f.enterprise_id', '=', enterpriseId)
    .orderBy('f.id')
    .limit(limit);
  if (afterId !== null) query = query.where('f.id', '>', afterId);
  return query.execute();
}
