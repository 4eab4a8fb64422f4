import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB, Executor } from '../db/schema.js';
import type { AuditLogTable } from '../db/tables/audit.js';
import { GENESIS_HASH, entryHash, type ChainedContent } from './hash-chain.js';

export interface ChainVerification {
  valid: boolean;
  entries_checked: number;
  first_invalid_id: string | null;
}

/**
 * A point of the chain known from elsewhere (a signed checkpoint): the entry at `chain_seq` must be
 * `last_entry_id` with hash `last_hash`. `trusted` false: its signature did not verify.
 */
export interface ChainAnchor {
  chain_seq: number;
  last_entry_id: string;
  last_hash: string;
  trusted: boolean;
}

export type ChainFailure =
  | 'hash_mismatch'
  | 'broken_link'
  | 'sequence_gap'
  | 'checkpoint_mismatch'
  | 'checkpoint_signature'
  | 'missing_entries';

export interface ChainWalk extends ChainVerification {
  anchors_checked: number;
  failure: ChainFailure | null;
}

export interface WalkOptions {
  /** The anchors of this chain with from <= chain_seq <= to, in chain_seq order. */
  anchorsBetween?: (from: number, to: number) => Promise<ChainAnchor[]>;
  batchSize?: number;
}


/** A row as the walk reads it: with the microseconds of created_at, which a Date cannot hold. */
type StoredRow = Omit<Selectable<AuditLogTable>, 'prev_hash' | 'hash'> & { created_at_us?: string };

/** The content an entry's hash covers, read back from its row. */
export function chainedContentOf(row: StoredRow): ChainedContent {
  return {
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
    created_at: hashedTimestamp(row.created_at, row.created_at_us),
  };
}

/**
 * created_at as its hash covers it, at the precision PostgreSQL stores (microseconds). The writer stores
 * whole milliseconds, which hash as the ISO text they always did; a stored value with sub-millisecond digits
 * (no writer makes one: only an edit of the table) hashes with them, so changing those digits breaks the hash.
 */
export function hashedTimestamp(createdAt: Date, microsecondsOfSecond: string | undefined): string {
  const iso = createdAt.toISOString();
  const subMillisecond = microsecondsOfSecond === undefined ? '000' : microsecondsOfSecond.padStart(6, '0').slice(3);
  return subMillisecond === '000' ? iso : iso.replace(/Z$/, `${subMillisecond}Z`);
}

/**
 * Walks one chain (an enterprise's, or the platform's for null) in sequence order, in batches so that
 * memory stays flat, recomputing every hash from the stored content and checking every anchor on the way.
 * A chain whose first entries were moved to cold storage starts after an anchor: the first entry left
 * must link to that anchor's hash.
 */
export async function walkAuditChain(db: Executor, enterpriseId: string | null, options: WalkOptions = {}): Promise<ChainWalk> {
  const batchSize = options.batchSize ?? 1000;
  const anchorsBetween = options.anchorsBetween ?? (async () => []);
  let prevHash = GENESIS_HASH;
  let expectedSeq: number | null = null;
  let checked = 0;
  let anchorsChecked = 0;
  const fail = (failure: ChainFailure, id: string | null): ChainWalk => ({
    valid: false,
    entries_checked: checked,
    first_invalid_id: id,
    anchors_checked: anchorsChecked,
    failure,
  });
  for (;;) {
    const fromSeq: number = expectedSeq ?? 0;
    const rows: (Selectable<AuditLogTable> & { created_at_us: string })[] = await db
      .selectFrom('audit_log')
      .selectAll()
      .select(sql<string>`to_char(created_at, 'US')`.as('created_at_us'))
      .where((eb) => (enterpriseId === null ? eb('enterprise_id', 'is', null) : eb('enterprise_id', '=', enterpriseId)))
      .where('chain_seq', '>=', fromSeq)
      .orderBy('chain_seq')
      .limit(batchSize)
      .execute();
    if (rows.length === 0) break;
    const firstSeq: number = Number(rows[0]!.chain_seq);
    const anchors = await anchorsBetween(expectedSeq === null ? firstSeq - 1 : firstSeq, Number(rows.at(-1)!.chain_seq));
    let next = 0;
    if (expectedSeq === null) {
      expectedSeq = firstSeq;
      if (firstSeq > 1) {
        // An archived prefix: only an anchor at the cut tells what the first entry left must link to.
        const cut = anchors.find((anchor) => anchor.chain_seq === firstSeq - 1);
        if (cut === undefined || !cut.trusted) return fail(cut === undefined ? 'sequence_gap' : 'checkpoint_signature', rows[0]!.id);
        anchorsChecked += 1;
        prevHash = cut.last_hash;
      }
    }
    while (next < anchors.length && anchors[next]!.chain_seq < firstSeq) next += 1;
    for (const row of rows) {
      const seq = Number(row.chain_seq);
      checked += 1;
      if (seq !== expectedSeq) return fail('sequence_gap', row.id);
      if (row.prev_hash !== prevHash) return fail('broken_link', row.id);
      if (row.hash !== entryHash(prevHash, chainedContentOf(row))) return fail('hash_mismatch', row.id);
      for (; next < anchors.length && anchors[next]!.chain_seq === seq; next += 1) {
        const anchor = anchors[next]!;
        if (!anchor.trusted) return fail('checkpoint_signature', row.id);
        if (anchor.last_entry_id !== row.id || anchor.last_hash !== row.hash) return fail('checkpoint_mismatch', row.id);
        anchorsChecked += 1;
      }
      prevHash = row.hash;
      expectedSeq += 1;
    }
    if (rows.length < batchSize) break;
  }
  // An anchor beyond the last entry: entries it vouched for are gone.
  const beyond = await anchorsBetween(expectedSeq ?? 1, Number.MAX_SAFE_INTEGER);
  if (beyond.length > 0) return fail('missing_entries', beyond[0]!.last_entry_id);
  return { valid: true, entries_checked: checked, first_invalid_id: null, anchors_checked: anchorsChecked, failure: null };
}

/** The chain alone, without anchors: valid, entries_checked, first_invalid_id (D7.5). */
export async function verifyAuditChain(db: Kysely<DB>, enterpriseId: string | null): Promise<ChainVerification> {
  const { valid, entries_checked, first_invalid_id } = await walkAuditChain(db, enterpriseId);
  return { valid, entries_checked, first_invalid_id };
}
