import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { GENESIS_HASH, entryHash } from './hash-chain.js';

export interface ChainVerification {
  valid: boolean;
  entries_checked: number;
  first_invalid_id: string | null;
}

const BATCH = 1000;

/**
 * Walks one chain (an enterprise's, or the platform's for null) in sequence order, in batches so that
 * memory stays flat, recomputing every hash from the stored content.
 */
export async function verifyAuditChain(db: Kysely<DB>, enterpriseId: string | null): Promise<ChainVerification> {
  let prevHash = GENESIS_HASH;
  let expectedSeq = 1;
  let checked = 0;
  for (;;) {
    const rows = await db
      .selectFrom('audit_log')
      .selectAll()
      .where((eb) => (enterpriseId === null ? eb('enterprise_id', 'is', null) : eb('enterprise_id', '=', enterpriseId)))
      .where('chain_seq', '>=', expectedSeq)
      .orderBy('chain_seq')
      .limit(BATCH)
      .execute();
    for (const row of rows) {
      checked += 1;
      const recomputed = entryHash(prevHash, {
        id: row.id,
        enterprise_id: row.enterprise_id,
        chain_seq: Number(row.chain_seq),
        user_id: row.user_id,
        user_email: row.user_email,
        user_name: row.user_name,
        action_type: row.action_type,
        entity_type: row.entity_type,
        entity_id: row.entity_id,
        action_details: row.action_details,
        ip_address: row.ip_address,
        user_agent: row.user_agent,
        status: row.status,
        created_at: row.created_at.toISOString(),
      });
      if (Number(row.chain_seq) !== expectedSeq || row.prev_hash !== prevHash || row.hash !== recomputed) {
        return { valid: false, entries_checked: checked, first_invalid_id: row.id };
      }
      prevHash = row.hash;
      expectedSeq += 1;
    }
    if (rows.length < BATCH) return { valid: true, entries_checked: checked, first_invalid_id: null };
  }
}
