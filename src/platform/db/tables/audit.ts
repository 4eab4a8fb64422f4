import type { ColumnType } from 'kysely';

export interface AuditLogTable {
  id: string;
  enterprise_id: string | null;
  chain_seq: number;
  user_id: string | null;
  user_email: string | null;
  user_name: string | null;
  action_type: string;
  entity_type: string | null;
  entity_id: string | null;
  action_details: ColumnType<Record<string, unknown>, string, never>;
  ip_address: string | null;
  user_agent: string | null;
  status: 'success' | 'failed';
  created_at: ColumnType<Date, string, never>;
  prev_hash: string;
  hash: string;
}

export interface AuditChainHeadsTable {
  chain_key: string;
  last_seq: number;
  last_hash: string;
  /** The newest entry's created_at: the next entry's is never earlier, so chain order is time order. */
  last_created_at: Date | null;
}

export interface AuditTables {
  audit_log: AuditLogTable;
  audit_chain_heads: AuditChainHeadsTable;
}
