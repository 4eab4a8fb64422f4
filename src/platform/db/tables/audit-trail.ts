import type { ColumnType, Generated } from 'kysely';

/** Signed chain heads (D7.6): written by the audit-trail module, over the chains platform/audit writes. */
export interface AuditCheckpointsTable {
  id: Generated<string>;
  enterprise_id: string | null;
  chain_seq: number;
  last_entry_id: string;
  last_hash: string;
  entry_count: number;
  signed_at: ColumnType<Date, string, never>;
  algorithm: 'Ed25519';
  key_id: string;
  public_key: string;
  signature: string;
}

export interface AuditTrailTables {
  audit_checkpoints: AuditCheckpointsTable;
}
