import { sql } from 'kysely';
import { countRows } from '../../platform/db/page-queries.js';
import type { Executor } from '../../platform/db/schema.js';
import type { AuditCheckpointsTable } from '../../platform/db/tables/audit-trail.js';
import type { Insertable } from 'kysely';

const PLATFORM_CHAIN = 'platform';
const chainKeyOf = (enterpriseId: string | null) => enterpriseId ?? PLATFORM_CHAIN;

/** The chain's head as committed (or as this transaction left it), with the id of its last entry. */
export async function findChainHead(db: Executor, enterpriseId: string | null) {
  const { rows } = await sql<{ last_seq: number; last_hash: string; last_entry_id: string }>`
    select h.last_seq, h.last_hash, e.id as last_entry_id
    from audit_chain_heads h
    join audit_log e on ${enterpriseId === null ? sql`e.enterprise_id is null` : sql`e.enterprise_id = ${enterpriseId}`}
      and e.chain_seq = h.last_seq
    where h.chain_key = ${chainKeyOf(enterpriseId)} and h.last_seq > 0`.execute(db);
  const row = rows[0];
  return row === undefined ? null : { ...row, last_seq: Number(row.last_seq) };
}

/** Chains whose head moved since their newest checkpoint (the periodic signer's work list). */
export async function chainsAheadOfCheckpoints(db: Executor): Promise<(string | null)[]> {
  const { rows } = await sql<{ chain_key: string }>`
    select h.chain_key from audit_chain_heads h
    where h.last_seq > coalesce((
      select max(c.chain_seq) from audit_checkpoints c
      where c.enterprise_id is not distinct from (case when h.chain_key = ${PLATFORM_CHAIN} then null else h.chain_key::uuid end)
    ), 0)`.execute(db);
  return rows.map((row) => (row.chain_key === PLATFORM_CHAIN ? null : row.chain_key));
}

const CHECKPOINT_COLUMNS = [
  'id',
  'enterprise_id',
  'chain_seq',
  'last_entry_id',
  'last_hash',
  'entry_count',
  'signed_at',
  'algorithm',
  'key_id',
  'public_key',
  'signature',
] as const;

export async function insertCheckpoint(db: Executor, values: Insertable<AuditCheckpointsTable>) {
  return db.insertInto('audit_checkpoints').values(values).returning(CHECKPOINT_COLUMNS).executeTakeFirstOrThrow();
}

export type CheckpointRow = Awaited<ReturnType<typeof insertCheckpoint>>;

export async function countCheckpoints(db: Executor, enterpriseId: string): Promise<number> {
  return countRows(db.selectFrom('audit_checkpoints').where('enterprise_id', '=', enterpriseId));
}

export async function listCheckpoints(db: Executor, enterpriseId: string, limit: number, offset: number) {
  return db
    .selectFrom('audit_checkpoints')
    .select(CHECKPOINT_COLUMNS)
    .where('enterprise_id', '=', enterpriseId)
    .orderBy('signed_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** The checkpoints of one chain between two positions, in chain order (the verifier's anchors). */
export async function checkpointsBetween(db: Executor, enterpriseId: string | null, from: number, to: number) {
  return db
    .selectFrom('audit_checkpoints')
    .select(CHECKPOINT_COLUMNS)
    .where((eb) => (enterpriseId === null ? eb('enterprise_id', 'is', null) : eb('enterprise_id', '=', enterpriseId)))
    .where('chain_seq', '>=', from)
    .where('chain_seq', '<=', to)
    .orderBy('chain_seq')
    .orderBy('signed_at')
    .execute();
}

/** Seconds since the newest checkpoint of any chain was signed; null before the first one. */
export async function newestCheckpointAgeSeconds(db: Executor): Promise<number | null> {
  const { rows } = await sql<{ age: number | null }>`
    select extract(epoch from (now() - max(signed_at)))::float8 as age from audit_checkpoints`.execute(db);
  const age = rows[0]?.age;
  return age === null || age === undefined ? null : Number(age);
}
