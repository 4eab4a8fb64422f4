import { generateKeyPairSync } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createCheckpointsService } from '../../src/modules/audit-trail/checkpoints.service.js';
import { checkpointKeySource } from '../../src/platform/audit/checkpoint-key.js';
import { signCheckpoint, signingKeyFrom } from '../../src/platform/audit/checkpoint-signature.js';
import { createTestContext } from '../support/app.js';
import { sessionHeaders } from '../support/api.js';
import { countAuditEntries, expectAccessDenied } from '../support/audit.js';
import { rewriteEntry, tamper } from '../support/audit-tamper.js';
import { createEnterprise, createUser, type TestUser } from '../support/factories.js';
import { appendAuditEntries, signingKeyEnv } from '../support/governance-factories.js';

const seconds = (n: number) => Array.from({ length: n }, (_, i) => ({ createdAt: new Date(Date.UTC(2026, 6, 1, 0, 0, i)) }));

/** POST /api/v1/audit/verify: the trail against a checkpoint an auditor kept (D7.5, issue #23). */
describe('verifying the audit trail against a kept checkpoint', async () => {
  const ctx = await createTestContext({ env: signingKeyEnv() });
  const headers = sessionHeaders(ctx);

  /** An enterprise with a trail of 8 entries, the checkpoint an auditor kept (as listed), then 3 entries more. */
  async function setup() {
    const enterprise = await createEnterprise(ctx);
    const admin = await createUser(ctx, { role: 'admin', enterpriseId: enterprise.id });
    const ids = await appendAuditEntries(ctx, enterprise.id, seconds(8));
    expect((await ctx.app.inject({ method: 'POST', url: '/api/v1/audit/checkpoints', headers: await headers(admin) })).statusCode).toBe(201);
    const listed = await ctx.app.inject({ method: 'GET', url: '/api/v1/audit/checkpoints', headers: await headers(admin) });
    const kept = listed.json().data[0];
    await appendAuditEntries(ctx, enterprise.id, [{ createdAt: new Date() }, { createdAt: new Date() }, { createdAt: new Date() }]);
    const verifyKept = async (body: Record<string, unknown> = { checkpoint: kept }, user: TestUser = admin) =>
      ctx.app.inject({ method: 'POST', url: '/api/v1/audit/verify', headers: await headers(user), payload: body });
    const verify = async () => (await ctx.app.inject({ method: 'GET', url: '/api/v1/audit/verify', headers: await headers(admin) })).json().data;
    return { enterprise, admin, ids, kept, verifyKept, verify };
  }

  it('a kept checkpoint, handed back as listed, verifies: the trail still holds its head', async () => {
    const { kept, verifyKept } = await setup();
    const response = await verifyKept();
    expect(response.statusCode, response.body).toBe(200);
    // 8 entries, the checkpoint's own audit entry (which it covers), 3 more; the kept checkpoint is the stored one: counted once.
    expect(response.json().data).toEqual({ valid: true, entries_checked: 12, first_invalid_id: null, checkpoints_checked: 1, failure: null });
    expect((await verifyKept({ checkpoint: kept, public_key: kept.public_key })).json().data).toMatchObject({ valid: true });
  });

  it('a rewrite with recomputed hashes and every stored checkpoint deleted passes GET, but not the kept checkpoint', async () => {
    const { enterprise, ids, kept, verify, verifyKept } = await setup();
    await tamper(ctx, async (trx) => {
      await rewriteEntry(trx, enterprise.id, ids[2]!);
      await sql`delete from audit_checkpoints where enterprise_id = ${enterprise.id}`.execute(trx);
    });
    expect(await verify()).toMatchObject({ valid: true, checkpoints_checked: 0 });
    const response = await verifyKept();
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toEqual({
      valid: false, entries_checked: kept.chain_seq, first_invalid_id: kept.last_entry_id, checkpoints_checked: 0, failure: 'checkpoint_mismatch',
    });
  });

  it('entries gone past the kept checkpoint (the tail cut and the head reset) are missing_entries', async () => {
    const { enterprise, kept, verify, verifyKept } = await setup();
    await tamper(ctx, async (trx) => {
      await sql`delete from audit_log where enterprise_id = ${enterprise.id} and chain_seq >= ${kept.chain_seq}`.execute(trx);
      await sql`delete from audit_checkpoints where enterprise_id = ${enterprise.id}`.execute(trx);
      await sql`update audit_chain_heads set last_seq = ${kept.chain_seq - 1},
        last_hash = (select hash from audit_log where enterprise_id = ${enterprise.id} and chain_seq = ${kept.chain_seq - 1})
        where chain_key = ${enterprise.id}`.execute(trx);
    });
    expect(await verify()).toMatchObject({ valid: true });
    expect((await verifyKept()).json().data).toMatchObject({ valid: false, first_invalid_id: kept.last_entry_id, failure: 'missing_entries' });
  });

  it('the kept checkpoint at an archive cut anchors the cut when the stored one is gone (docs/audit-retention.md)', async () => {
    const { enterprise, kept, verify, verifyKept } = await setup();
    await tamper(ctx, async (trx) => {
      await sql`delete from audit_log where enterprise_id = ${enterprise.id} and chain_seq <= ${kept.chain_seq}`.execute(trx);
      await sql`delete from audit_checkpoints where enterprise_id = ${enterprise.id}`.execute(trx);
    });
    expect(await verify()).toMatchObject({ valid: false, failure: 'sequence_gap' });
    expect((await verifyKept()).json().data).toEqual({ valid: true, entries_checked: 3, first_invalid_id: null, checkpoints_checked: 1, failure: null });
  });

  it('an altered or forged checkpoint is refused with 422 VALIDATION_ERROR, and its own public_key vouches for nothing', async () => {
    const { kept, verifyKept } = await setup();
    const altered = await verifyKept({ checkpoint: { ...kept, last_hash: 'f'.repeat(64) } });
    expect(altered.statusCode, altered.body).toBe(422);
    expect(altered.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: [{ field: 'checkpoint.signature' }] } });
    expect(altered.json().error).toMatch(/does not verify with the trusted key/);
    // A forger's own key, carried in the checkpoint: not a key the service trusts.
    const forger = signingKeyFrom(generateKeyPairSync('ed25519').privateKey);
    const claims = { ...kept, last_hash: 'f'.repeat(64) };
    const forged = { ...claims, key_id: forger.keyId, public_key: forger.publicKeyPem, signature: signCheckpoint(forger, claims) };
    const refused = await verifyKept({ checkpoint: forged });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().details.fields).toEqual([{ field: 'checkpoint.key_id', message: expect.stringContaining('does not trust') }]);
    expect((await verifyKept({ checkpoint: { ...forged, key_id: kept.key_id } })).statusCode).toBe(422);
    // The schema still applies: an unknown field is 422 too.
    expect((await verifyKept({ checkpoint: { ...kept, note: 'x' } })).json().details.fields).toEqual([{ field: 'checkpoint.note', message: 'is not allowed' }]);
  });

  it('the public key the auditor pinned is what counts: another key is 422, even for a checkpoint the service signed', async () => {
    const { kept, verifyKept } = await setup();
    const other = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const response = await verifyKept({ checkpoint: kept, public_key: other });
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json().error).toMatch(/does not verify with the public_key given/);
    expect((await verifyKept({ checkpoint: kept, public_key: 'not a key' })).json().details.fields).toEqual([
      { field: 'public_key', message: 'must be an Ed25519 public key in SPKI PEM' },
    ]);
  });

  it("another enterprise's checkpoint, or the platform trail's, is 404 (D10.1), whatever its signature", async () => {
    const mine = await setup();
    const theirs = await setup();
    const response = await mine.verifyKept({ checkpoint: theirs.kept });
    expect(response.statusCode, response.body).toBe(404);
    expect(response.json().code).toBe('NOT_FOUND');
    const service = createCheckpointsService({ db: ctx.db, keys: checkpointKeySource(ctx.config) });
    await appendAuditEntries(ctx, null, [{ createdAt: new Date() }]);
    await service.signChainsAhead();
    const platform = await ctx.db.selectFrom('audit_checkpoints').selectAll().where('enterprise_id', 'is', null).executeTakeFirstOrThrow();
    const { id: _id, ...platformClaims } = platform;
    const asListed = { ...platformClaims, chain_seq: Number(platform.chain_seq), entry_count: Number(platform.entry_count), signed_at: platform.signed_at.toISOString() };
    expect((await mine.verifyKept({ checkpoint: asListed })).statusCode).toBe(404);
  });

  it('refuses an assessor and a super admin with 403 and an access_denied entry (D5); a reviewer may verify', async () => {
    const { enterprise, kept, verifyKept } = await setup();
    const reviewer = await createUser(ctx, { role: 'reviewer', enterpriseId: enterprise.id });
    const assessor = await createUser(ctx, { role: 'assessor', enterpriseId: enterprise.id });
    const superAdmin = await createUser(ctx, { role: 'super_admin' });
    expect((await verifyKept({ checkpoint: kept }, reviewer)).json().data).toMatchObject({ valid: true });
    await expectAccessDenied(ctx, assessor, await verifyKept({ checkpoint: kept }, assessor), 'audit.verify_checkpoint');
    await expectAccessDenied(ctx, superAdmin, await verifyKept({ checkpoint: kept }, superAdmin), 'audit.verify_checkpoint');
  });

  it('verifying writes no audit entry (a read, like GET /audit/verify)', async () => {
    const { enterprise, verifyKept } = await setup();
    const before = await countAuditEntries(ctx, enterprise.id);
    expect((await verifyKept()).statusCode).toBe(200);
    expect(await countAuditEntries(ctx, enterprise.id)).toBe(before);
  });
});
