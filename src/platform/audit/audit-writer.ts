import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import { insertInChunks } from '../db/chunked-insert.js';
import type { DB } from '../db/schema.js';
import type { AuditEvent } from './audit-events.js';
import { GENESIS_HASH, entryHash, type ChainedContent } from './hash-chain.js';

const PLATFORM_CHAIN = 'platform';

/** Rows of one multi-row INSERT: well under PostgreSQL's 65,535 bind parameters at 16 columns a row. */
const AUDIT_INSERT_CHUNK = 1000;

/**
 * The one audit writer. It only takes a transaction, so an entry commits with its change or not at all.
 * Each enterprise's entries (and the platform's) form a hash chain; the chain's head row is locked by
 * the UPDATE below until commit, so concurrent writers append strictly one after another.
 */
export async function writeAudit(trx: Transaction<DB>, event: AuditEvent): Promise<string> {
  const [id] = await writeAuditEntries(trx, [event]);
  return id!;
}

/**
 * Several entries of one chain (one enterprise, or the platform) appended in order with the statements
 * of one: the head is moved once by their number, the hashes are chained here, and the rows go in
 * multi-row INSERTs. For a change of many records at once (a library import), where one entry per record
 * would otherwise cost four round trips each.
 */
export async function writeAuditEntries(trx: Transaction<DB>, events: readonly AuditEvent[]): Promise<string[]> {
  if (events.length === 0) return [];
  const enterpriseId = events[0]!.enterpriseId;
  if (events.some((event) => event.enterpriseId !== enterpriseId)) throw new Error('writeAuditEntries takes the entries of one chain');
  const chainKey = enterpriseId ?? PLATFORM_CHAIN;
  await trx
    .insertInto('audit_chain_heads')
    .values({ chain_key: chainKey, last_seq: 0, last_hash: GENESIS_HASH })
    .onConflict((oc) => oc.column('chain_key').doNothing())
    .execute();
  // RETURNING shows the new last sequence number and the hash as yet unchanged: the predecessor's.
  const head = await trx
    .updateTable('audit_chain_heads')
    .set((eb) => ({ last_seq: eb('last_seq', '+', events.length) }))
    .where('chain_key', '=', chainKey)
    .returning(['last_seq', 'last_hash', 'last_created_at'])
    .executeTakeFirstOrThrow();
  // Never earlier than the predecessor (a clock stepping back, another instance's clock): chain order is
  // time order, which the search relies on (dates map to chain ranges).
  const now = new Date();
  const createdAt = head.last_created_at !== null && head.last_created_at > now ? head.last_created_at : now;

  let seq = Number(head.last_seq) - events.length;
  let prevHash = head.last_hash;
  const rows = events.map((event) => {
    seq += 1;
    const content: ChainedContent = {
      id: randomUUID(),
      enterprise_id: event.enterpriseId,
      chain_seq: seq,
      user_id: event.actor.userId,
      user_email: event.actor.email,
      user_name: event.actor.fullName,
      action_type: event.action,
      entity_type: event.entityType,
      entity_id: event.entityId,
      action_details: event.operation == null ? event.details : { operation: event.operation, ...event.details },
      ip_address: event.ip,
      user_agent: event.userAgent,
      status: event.status ?? 'success',
      created_at: createdAt.toISOString(),
    };
    const hash = entryHash(prevHash, content);
    const row = {
      ...content,
      status: content.status as 'success' | 'failed',
      action_details: JSON.stringify(content.action_details),
      prev_hash: prevHash,
      hash,
    };
    prevHash = hash;
    return row;
  });
  await insertInChunks(rows, (chunk) => trx.insertInto('audit_log').values(chunk).execute(), AUDIT_INSERT_CHUNK);
  await trx
    .updateTable('audit_chain_heads')
    .set({ last_hash: prevHash, last_created_at: createdAt })
    .where('chain_key', '=', chainKey)
    .execute();
  return rows.map((row) => row.id);
}
