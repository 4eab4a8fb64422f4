import { sql, type Transaction } from 'kysely';
import { chainedContentOf } from '../../src/platform/audit/chain-verifier.js';
import { entryHash } from '../../src/platform/audit/hash-chain.js';
import type { DB } from '../../src/platform/db/schema.js';
import type { TestContext } from './app.js';

/**
 * What only the owner of the audit tables can do: in a transaction of its own, with the immutability
 * triggers off (the chain heads' too). The attacker the signed checkpoints are there for.
 */
export async function tamper(ctx: TestContext, change: (trx: Transaction<DB>) => Promise<void>) {
  await ctx.db.transaction().execute(async (trx) => {
    await sql`alter table audit_log disable trigger audit_log_immutable`.execute(trx);
    await sql`alter table audit_checkpoints disable trigger audit_checkpoints_immutable`.execute(trx);
    await sql`alter table audit_chain_heads disable trigger user`.execute(trx);
    await change(trx);
    await sql`alter table audit_chain_heads enable trigger user`.execute(trx);
    await sql`alter table audit_checkpoints enable trigger audit_checkpoints_immutable`.execute(trx);
    await sql`alter table audit_log enable trigger audit_log_immutable`.execute(trx);
  });
}

/**
 * A rewrite no hash betrays: changes one entry, then recomputes its hash and that of every later entry of
 * the enterprise's trail, and the chain head.
 */
export async function rewriteEntry(trx: Transaction<DB>, enterpriseId: string, entryId: string) {
  await sql`update audit_log set user_agent = 'rewritten' where id = ${entryId}`.execute(trx);
  const rows = await trx.selectFrom('audit_log').selectAll().where('enterprise_id', '=', enterpriseId).orderBy('chain_seq').execute();
  const at = rows.findIndex((row) => row.id === entryId);
  let prev = rows[at]!.prev_hash;
  for (const row of rows.slice(at)) {
    const hash = entryHash(prev, chainedContentOf(row));
    await sql`update audit_log set prev_hash = ${prev}, hash = ${hash} where id = ${row.id}`.execute(trx);
    prev = hash;
  }
  await sql`update audit_chain_heads set last_hash = ${prev} where chain_key = ${enterpriseId}`.execute(trx);
}
