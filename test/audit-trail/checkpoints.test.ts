import { createPublicKey, verify as verifySignature } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/platform/audit/hash-chain.js';
import { createCheckpointsService } from '../../src/modules/audit-trail/checkpoints.service.js';
import { checkpointKeySource } from '../../src/platform/audit/checkpoint-key.js';
import { createTestContext } from '../support/app.js';
import { auditEntries, expectAccessDenied } from '../support/audit.js';
import { cast } from '../support/cast.js';
import { createEnterprise, createUser } from '../support/factories.js';
import { appendAuditEntries, signingKeyEnv } from '../support/governance-factories.js';
import { scratchDir } from '../support/scratch-dir.js';

/** Signed checkpoints of the audit trail (D7.5): POST and GET /api/v1/audit/checkpoints. */
describe('audit checkpoints', async () => {
  const keyEnv = signingKeyEnv();
  const ctx = await createTestContext({ env: keyEnv });
  const { enterprise, admin, reviewer, assessor, superAdmin, otherAdmin, call } = await cast(ctx);
  await appendAuditEntries(ctx, enterprise.id, [{ createdAt: new Date('2026-07-01T00:00:00Z') }, { createdAt: new Date('2026-07-02T00:00:00Z') }]);

  it('signs the head of the trail on demand, covering the audit entry of its own creation', async () => {
    const response = await call(admin, 'POST', '/audit/checkpoints');
    expect(response.statusCode, response.body).toBe(201);
    const checkpoint = response.json().data;
    const [created] = await auditEntries(ctx, { entityType: 'audit_checkpoint', entityId: checkpoint.id });
    expect(created).toMatchObject({ enterprise_id: enterprise.id, action_type: 'create', user_id: admin.id });
    expect(checkpoint).toMatchObject({
      enterprise_id: enterprise.id, chain_seq: 3, entry_count: 3, last_entry_id: created!.id, last_hash: created!.hash, algorithm: 'Ed25519',
    });
  });

  it('an auditor can check a kept checkpoint with the public key alone', async () => {
    const checkpoint = (await call(reviewer, 'POST', '/audit/checkpoints')).json().data;
    const { enterprise_id, chain_seq, last_entry_id, last_hash, entry_count, signed_at } = checkpoint;
    const message = `risk-assurance audit checkpoint v1\n${canonicalJson({ enterprise_id, chain_seq, last_entry_id, last_hash, entry_count, signed_at })}`;
    const publicKey = createPublicKey(checkpoint.public_key);
    expect(verifySignature(null, Buffer.from(message), publicKey, Buffer.from(checkpoint.signature, 'base64'))).toBe(true);
    expect(verifySignature(null, Buffer.from(message.replace(last_hash, '0'.repeat(64))), publicKey, Buffer.from(checkpoint.signature, 'base64'))).toBe(false);
    // The key is the configured one, which the database does not hold.
    expect(checkpoint.public_key).toBe(createPublicKey(keyEnv.AUDIT_SIGNING_KEY).export({ type: 'spki', format: 'pem' }).toString());
    const stored = await sql<{ n: number }>`select count(*)::int as n from platform_secrets where value::text like ${'%PRIVATE KEY%'}`.execute(ctx.db);
    expect(stored.rows[0]!.n).toBe(0);
  });

  it('lists the checkpoints newest first, paginated; another enterprise sees none of them', async () => {
    const response = await call(admin, 'GET', '/audit/checkpoints?page_size=1');
    expect(response.statusCode).toBe(200);
    expect(response.json().pagination).toMatchObject({ page: 1, page_size: 1, total: 2, has_next: true });
    expect(response.json().data[0].chain_seq).toBe(4);
    expect((await call(otherAdmin, 'GET', '/audit/checkpoints')).json().data).toEqual([]);
  });

  it('verify checks the chain against every checkpoint', async () => {
    expect((await call(admin, 'GET', '/audit/verify')).json().data).toMatchObject({ valid: true, checkpoints_checked: 2 });
  });

  it('a checkpoint whose signed fields were altered in the table fails verification', async () => {
    const other = await createEnterprise(ctx);
    const freshAdmin = await createUser(ctx, { role: 'admin', enterpriseId: other.id });
    await appendAuditEntries(ctx, other.id, [{ createdAt: new Date('2026-07-01T00:00:00Z') }]);
    const checkpoint = (await call(freshAdmin, 'POST', '/audit/checkpoints')).json().data;
    await ctx.db.transaction().execute(async (trx) => {
      await sql`alter table audit_checkpoints disable trigger audit_checkpoints_immutable`.execute(trx);
      await sql`update audit_checkpoints set entry_count = 99 where id = ${checkpoint.id}`.execute(trx);
      await sql`alter table audit_checkpoints enable trigger audit_checkpoints_immutable`.execute(trx);
    });
    expect((await call(freshAdmin, 'GET', '/audit/verify')).json().data).toMatchObject({ valid: false, failure: 'checkpoint_signature' });
  });

  it('checkpoints cannot be changed or deleted (immutable like the entries)', async () => {
    await expect(sql`update audit_checkpoints set entry_count = 1`.execute(ctx.db)).rejects.toThrow();
    await expect(sql`delete from audit_checkpoints`.execute(ctx.db)).rejects.toThrow();
  });

  it('the periodic round signs every trail whose head moved since its last checkpoint, and only those', async () => {
    const service = createCheckpointsService({ db: ctx.db, keys: checkpointKeySource(ctx.config) });
    const fresh = await createEnterprise(ctx);
    await appendAuditEntries(ctx, fresh.id, [{ createdAt: new Date('2026-07-01T00:00:00Z') }]);
    const before = await ctx.db.selectFrom('audit_checkpoints').select('enterprise_id').where('enterprise_id', '=', fresh.id).execute();
    expect(before).toHaveLength(0);
    expect(await service.signChainsAhead()).toBeGreaterThanOrEqual(1);
    const after = await ctx.db.selectFrom('audit_checkpoints').selectAll().where('enterprise_id', '=', fresh.id).execute();
    expect(after).toHaveLength(1);
    expect(Number(after[0]!.chain_seq)).toBe(1);
    expect(await service.signChainsAhead()).toBe(0);
  });

  it('without AUDIT_SIGNING_KEY the key is a file under DATA_DIR, created at first need with mode 0600 and kept', () => {
    const dataDir = scratchDir('audit-key');
    const config = { ...ctx.config, dataDir, audit: { ...ctx.config.audit, signingKeyPem: null } };
    const first = checkpointKeySource(config)().signing;
    const path = join(dataDir, 'audit-signing-key.pem');
    expect(readFileSync(path, 'utf8')).toMatch(/BEGIN PRIVATE KEY/);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(checkpointKeySource(config)().signing.keyId).toBe(first.keyId);
  });

  it('refuses an assessor and a super admin (D5)', async () => {
    await expectAccessDenied(ctx, assessor, await call(assessor, 'POST', '/audit/checkpoints'), 'audit.checkpoints.create');
    await expectAccessDenied(ctx, superAdmin, await call(superAdmin, 'GET', '/audit/checkpoints'), 'audit.checkpoints.list');
  });
});
