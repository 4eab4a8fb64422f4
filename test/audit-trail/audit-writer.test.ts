import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { writeAudit, writeAuditEntries } from '../../src/platform/audit/audit-writer.js';
import type { AuditEvent } from '../../src/platform/audit/audit-events.js';
import { verifyAuditChain } from '../../src/platform/audit/chain-verifier.js';
import { inTransaction } from '../../src/platform/db/transaction.js';
import { createTestContext } from '../support/app.js';
import { createEnterprise, createUser } from '../support/factories.js';

/** D7.5: entries commit with their change, are immutable, and each enterprise's entries form a hash chain. */
describe('audit writer', async () => {
  const ctx = await createTestContext();
  const enterprise = await createEnterprise(ctx);
  const actor = await createUser(ctx, { role: 'admin', enterpriseId: enterprise.id });

  const event = (enterpriseId: string | null, details: Record<string, unknown> = {}): AuditEvent => ({
    enterpriseId,
    actor: { userId: actor.id, email: actor.email, fullName: actor.fullName },
    action: 'update',
    entityType: 'user',
    entityId: actor.id,
    details,
    ip: '203.0.113.7',
    userAgent: 'vitest',
  });

  it('the hash chain verifies after 200 concurrent writes (D7.5)', async () => {
    const writes = Array.from({ length: 200 }, (_, i) =>
      inTransaction(ctx.db, ({ trx }) => writeAudit(trx, event(enterprise.id, { i, nested: { b: 2, a: [1, 'x'] } }))),
    );
    await Promise.all(writes);
    const result = await verifyAuditChain(ctx.db, enterprise.id);
    expect(result).toEqual({ valid: true, entries_checked: 200, first_invalid_id: null });
    const seqs = await ctx.db
      .selectFrom('audit_log')
      .select('chain_seq')
      .where('enterprise_id', '=', enterprise.id)
      .orderBy('chain_seq')
      .execute();
    expect(seqs.map((row) => Number(row.chain_seq))).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
  });

  it('appends a batch of entries in order, between single writes, and the chain still verifies', async () => {
    const batched = await createEnterprise(ctx);
    await inTransaction(ctx.db, ({ trx }) => writeAudit(trx, event(batched.id, { n: 0 })));
    const ids = await inTransaction(ctx.db, ({ trx }) =>
      writeAuditEntries(trx, Array.from({ length: 2500 }, (_, i) => event(batched.id, { n: i + 1 }))),
    );
    await inTransaction(ctx.db, ({ trx }) => writeAudit(trx, event(batched.id, { n: 2501 })));
    expect(ids).toHaveLength(2500);
    expect(await verifyAuditChain(ctx.db, batched.id)).toEqual({ valid: true, entries_checked: 2502, first_invalid_id: null });
    const rows = await ctx.db
      .selectFrom('audit_log')
      .select(['id', 'chain_seq', 'action_details'])
      .where('enterprise_id', '=', batched.id)
      .orderBy('chain_seq')
      .execute();
    expect(rows.map((row) => (row.action_details as { n: number }).n)).toEqual(Array.from({ length: 2502 }, (_, i) => i));
    expect(rows.slice(1, 2501).map((row) => row.id)).toEqual(ids);
  });

  it('refuses a batch that mixes two chains, and writes nothing of it', async () => {
    const other = await createEnterprise(ctx);
    await expect(inTransaction(ctx.db, ({ trx }) => writeAuditEntries(trx, [event(other.id), event(enterprise.id)]))).rejects.toThrow(/one chain/);
    expect(await verifyAuditChain(ctx.db, other.id)).toEqual({ valid: true, entries_checked: 0, first_invalid_id: null });
  });

  it('keeps a separate chain per enterprise and one for the platform', async () => {
    const other = await createEnterprise(ctx);
    await inTransaction(ctx.db, ({ trx }) => writeAudit(trx, event(other.id)));
    await inTransaction(ctx.db, ({ trx }) => writeAudit(trx, event(null)));
    await inTransaction(ctx.db, ({ trx }) => writeAudit(trx, event(null)));
    expect(await verifyAuditChain(ctx.db, other.id)).toEqual({ valid: true, entries_checked: 1, first_invalid_id: null });
    expect(await verifyAuditChain(ctx.db, null)).toMatchObject({ valid: true });
  });

  it('a direct SQL UPDATE, DELETE or TRUNCATE of the audit table fails', async () => {
    const id = await inTransaction(ctx.db, ({ trx }) => writeAudit(trx, event(enterprise.id)));
    await expect(sql`update audit_log set user_email = 'forged@example.test' where id = ${id}`.execute(ctx.db)).rejects.toThrow(
      /immutable/,
    );
    await expect(sql`delete from audit_log where id = ${id}`.execute(ctx.db)).rejects.toThrow(/immutable/);
    await expect(sql`truncate audit_log`.execute(ctx.db)).rejects.toThrow(/immutable/);
    const row = await ctx.db.selectFrom('audit_log').select('user_email').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.user_email).toBe(actor.email);
  });

  it('a failed change leaves no audit entry', async () => {
    const before = await ctx.db.selectFrom('audit_log').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    await expect(
      inTransaction(ctx.db, async ({ trx }) => {
        await writeAudit(trx, event(enterprise.id, { doomed: true }));
        // The change itself fails after its entry was written: both roll back.
        await trx.insertInto('enterprises').values({ name: enterprise.name, country: 'GB' }).execute();
      }),
    ).rejects.toThrow();
    const after = await ctx.db.selectFrom('audit_log').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    expect(await verifyAuditChain(ctx.db, enterprise.id)).toMatchObject({ valid: true });
  });

  it('verification names the first entry whose content no longer matches its hash', async () => {
    const tampered = await createEnterprise(ctx);
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) ids.push(await inTransaction(ctx.db, ({ trx }) => writeAudit(trx, event(tampered.id, { i }))));
    // Only the table owner can lift the trigger; the service never does. This stands for tampering at rest.
    await sql`alter table audit_log disable trigger audit_log_immutable`.execute(ctx.db);
    try {
      await sql`update audit_log set action_details = '{"i": 99}' where id = ${ids[1]}`.execute(ctx.db);
    } finally {
      await sql`alter table audit_log enable trigger audit_log_immutable`.execute(ctx.db);
    }
    expect(await verifyAuditChain(ctx.db, tampered.id)).toEqual({ valid: false, entries_checked: 2, first_invalid_id: ids[1] });
  });
});
