import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/**
 * Every entry ever written, on every chain: each chain head holds its chain's length, so this reads one
 * row per enterprise, not the trail.
 */
export async function auditEntriesWritten(db: Kysely<DB>): Promise<number> {
  const row = await db
    .selectFrom('audit_chain_heads')
    .select(sql<number>`coalesce(sum(last_seq), 0)`.as('written'))
    .executeTakeFirstOrThrow();
  return Number(row.written);
}
