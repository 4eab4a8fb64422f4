import { randomUUID } from 'node:crypto';
import { recordChange } from '../../platform/audit/record-change.js';
import type { Caller } from '../../platform/auth/principal.js';
import type { Executor } from '../../platform/db/schema.js';
import { inTransaction } from '../../platform/db/transaction.js';
import { AppError, notFound, referencedRecord } from '../../platform/errors/app-error.js';
import {
  evidenceAbilities,
  requireChangeableRecord,
  requireEvidenceMember,
  requireEvidenceReader,
  requireEvidenceWriter,
} from './evidence.policy.js';
import { findRecordPlace } from './evidence-records.repository.js';
import {
  evidenceBytesOf,
  findEvidence,
  insertEvidence,
  listEvidence,
  lockEvidenceQuota,
  markEvidenceRemoved,
  type EvidenceRow,
} from './evidence.repository.js';
import type { EvidenceView, RecordQuery } from './evidence.schemas.js';
import { SNIFF_BYTES, evidenceMediaType } from './media-type.js';
import type { ByteRange, EvidenceStore } from './storage/evidence-store.js';
import { measureUpload } from './upload-stream.js';

export interface EvidenceLimits {
  maxFileBytes: number;
  quotaBytes: number;
}

export interface EvidenceServiceDeps {
  /** The database, or a caller's open transaction to join. */
  db: Executor;
  store: EvidenceStore;
  limits: EvidenceLimits;
}

/** A file as a client uploads it: its name as sent and its content as it streams in. */
export interface Upload {
  fileName: string;
  content: AsyncIterable<Buffer>;
}

/** A file to send: what it is, and its content (the range asked for, or all of it). */
export interface Download {
  file: EvidenceView;
  range: ByteRange | null;
  content: AsyncIterable<Buffer>;
}

const MIB = 1024 * 1024;

/** The name as stored: no folder, no control character, at most 255 characters; never empty. */
export function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 255);
  return clean === '' || clean === '.' || clean === '..' ? 'evidence' : clean;
}

function present(row: EvidenceRow): EvidenceView {
  return {
    id: row.id,
    record_type: row.record_type,
    record_id: row.record_id,
    name: row.name,
    media_type: row.media_type,
    size_bytes: Number(row.size_bytes),
    sha256: row.sha256,
    created_by: row.created_by,
    created_by_user: row.created_by === null ? null : { id: row.created_by, full_name: row.created_by_name ?? '' },
    created_at: row.created_at.toISOString(),
  };
}

/**
 * Evidence files (issue 48). The rules of who reaches a file are its record's (evidence.policy.ts); the
 * content goes through one store (the database by default, or S3-compatible storage). An upload is read
 * once, as it streams: its type from its first bytes, then counted and hashed on its way to the store, and
 * recorded with its audit entry in one transaction, so a refused or failed upload leaves nothing.
 */
export function createEvidenceService({ db, store, limits }: EvidenceServiceDeps) {
  async function placeOf(executor: Executor, caller: Caller & { enterpriseId: string }, record: RecordQuery) {
    return referencedRecord('record_id', `a ${record.record_type.replace('_', ' ')}`, findRecordPlace(executor, caller, record.record_type, record.record_id));
  }

  /** A live file and its record, the caller allowed to read it (404 for a removed or unknown file). */
  async function readable(executor: Executor, caller: Caller & { enterpriseId: string }, evidenceId: string, lock = false) {
    const file = await findEvidence(executor, caller.enterpriseId, evidenceId, lock);
    if (file === undefined || file.removed_at !== null) throw notFound('Evidence file');
    const place = await findRecordPlace(executor, caller, file.record_type, file.record_id);
    if (place === undefined) throw notFound('Evidence file');
    requireEvidenceReader(caller, place);
    return { file, place };
  }

  return {
    /** The limits an upload is held to (the route bounds its parser by them). */
    limits,

    async list(caller: Caller, record: RecordQuery) {
      requireEvidenceMember(caller);
      const place = await placeOf(db, caller, record);
      requireEvidenceReader(caller, place);
      const rows = await listEvidence(db, caller.enterpriseId, record.record_type, record.record_id);
      return { data: rows.map(present), abilities: evidenceAbilities(caller, place) };
    },

    async upload(caller: Caller, record: RecordQuery, upload: Upload): Promise<EvidenceView> {
      requireEvidenceMember(caller);
      const enterpriseId = caller.enterpriseId;
      const key = randomUUID();
      try {
        return await inTransaction(db, async ({ trx }) => {
          const place = await placeOf(trx, caller, record);
          requireEvidenceWriter(caller, place);
          requireChangeableRecord(place);
          const left = limits.quotaBytes - (await evidenceBytesOf(trx, enterpriseId));
          const limit =
            left < limits.maxFileBytes
              ? { bytes: Math.max(0, left), why: `The enterprise's evidence quota (${limits.quotaBytes / MIB} MiB) has ${Math.max(0, Math.floor(left / MIB))} MiB left` }
              : { bytes: limits.maxFileBytes, why: `An evidence file may be at most ${limits.maxFileBytes / MIB} MiB` };
          const name = cleanFileName(upload.fileName);
          const measured = await measureUpload(upload.content, SNIFF_BYTES, limit);
          const mediaType = await evidenceMediaType(measured.head, name);
          await store.put(trx, enterpriseId, key, measured.content);
          const { sizeBytes, sha256 } = measured.measured();
          // Concurrent uploads each saw the quota before the other's insert: decide again, one at a time.
          await lockEvidenceQuota(trx, enterpriseId);
          if ((await evidenceBytesOf(trx, enterpriseId)) + sizeBytes > limits.quotaBytes) {
            throw new AppError('PAYLOAD_TOO_LARGE', `The enterprise's evidence quota (${limits.quotaBytes / MIB} MiB) is used up`);
          }
          const id = await insertEvidence(trx, enterpriseId, {
            record_type: record.record_type,
            record_id: record.record_id,
            name,
            media_type: mediaType,
            size_bytes: sizeBytes,
            sha256,
            storage: store.kind,
            storage_key: key,
            created_by: caller.userId,
          });
          await recordChange(trx, caller, {
            action: 'create',
            entityType: 'evidence_file',
            entityId: id,
            details: { record_type: record.record_type, record_id: record.record_id, name, media_type: mediaType, size_bytes: sizeBytes, sha256 },
          });
          return present((await findEvidence(trx, enterpriseId, id))!);
        });
      } catch (error) {
        await store.discard(enterpriseId, key);
        throw error;
      }
    },

    /** The file, or the one range given (validated against its size by the route, which knows HTTP's Range). */
    async download(caller: Caller, evidenceId: string, rangeOf: (size: number) => ByteRange | null): Promise<Download> {
      requireEvidenceMember(caller);
      const { file } = await readable(db, caller, evidenceId);
      const view = present(file);
      const range = rangeOf(view.size_bytes);
      return { file: view, range, content: store.get(db, caller.enterpriseId, file.storage_key, range) };
    },

    async remove(caller: Caller, evidenceId: string): Promise<void> {
      requireEvidenceMember(caller);
      await inTransaction(db, async ({ trx }) => {
        const { file, place } = await readable(trx, caller, evidenceId, true);
        requireEvidenceWriter(caller, place);
        requireChangeableRecord(place);
        await markEvidenceRemoved(trx, caller.enterpriseId, evidenceId, caller.userId);
        await recordChange(trx, caller, {
          action: 'delete',
          entityType: 'evidence_file',
          entityId: evidenceId,
          details: { record_type: file.record_type, record_id: file.record_id, name: file.name, sha256: file.sha256 },
        });
      });
    },
  };
}

export type EvidenceService = ReturnType<typeof createEvidenceService>;
