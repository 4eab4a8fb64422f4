import { sql, type SqlBool } from 'kysely';
import type { Executor } from '../../platform/db/schema.js';

/**
 * The evidence a BRA's snapshot and report list (issue 48): the live files attached to the BRA, to its
 * scenario links and to its mitigation actions, oldest first, each with its name and SHA-256, so that an
 * auditor holding the snapshot can ask for each file and check it. One statement through
 * evidence_files_record_idx.
 */
export async function evidenceOfBra(db: Executor, enterpriseId: string, braId: string) {
  const rows = await db
    .selectFrom('evidence_files as f')
    .select(['f.id', 'f.record_type', 'f.record_id', 'f.name', 'f.media_type', 'f.size_bytes', 'f.sha256', 'f.created_at'])
    .where('f.enterprise_id', '=', enterpriseId)
    .where('f.removed_at', 'is', null)
    .where(sql<SqlBool>`(
      (f.record_type = 'bra' and f.record_id = ${braId})
      or (f.record_type = 'bra_scenario' and f.record_id in (
            select l.id from bra_risk_scenarios l where l.enterprise_id = ${enterpriseId} and l.bra_id = ${braId}))
      or (f.record_type = 'mitigation_action' and f.record_id in (
            select a.id from mitigation_actions a where a.enterprise_id = ${enterpriseId} and a.bra_id = ${braId} and not a.archived))
    )`)
    .orderBy('f.created_at')
    .orderBy('f.id')
    .execute();
  return rows.map((row) => ({ ...row, size_bytes: Number(row.size_bytes) }));
}
