import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt } from './enterprises.js';

/** The records a file can be attached to. */
export type EvidenceRecordType = 'sub_control_test' | 'mitigation_action' | 'bra' | 'bra_scenario';

/** Where a file's content is kept: the database (the default) or S3-compatible object storage. */
export type EvidenceStorage = 'postgres' | 's3';

export interface EvidenceFilesTable {
  id: Generated<string>;
  enterprise_id: string;
  record_type: EvidenceRecordType;
  record_id: string;
  name: string;
  media_type: string;
  /** bigint (text from pg). */
  size_bytes: ColumnType<string, number, never>;
  sha256: string;
  storage: EvidenceStorage;
  storage_key: string;
  created_by: string | null;
  created_at: CreatedAt;
  removed_at: Date | null;
  removed_by: string | null;
}

export interface EvidenceBlobsTable {
  enterprise_id: string;
  blob_key: string;
  seq: number;
  data: Buffer;
}

export interface EvidenceTables {
  evidence_files: EvidenceFilesTable;
  evidence_blobs: EvidenceBlobsTable;
}
