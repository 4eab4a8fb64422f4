import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../src/config.js';
import { createCheckpointsService } from '../../src/modules/audit-trail/checkpoints.service.js';
import { checkpointKeySource } from '../../src/platform/audit/checkpoint-key.js';
import { runKeysCommand } from '../../src/keys-command.js';
import { createTestContext, type TestContext } from '../support/app.js';
import { rewriteEntry, tamper } from '../support/audit-tamper.js';
import { calls } from '../support/cast.js';
import { createEnterprise, createUser, type TestUser } from '../support/factories.js';
import { appendAuditEntries, signingKeyEnv } from '../support/governance-factories.js';
import { scratchDir } from '../support/scratch-dir.js';

const seconds = (n: number) => Array.from({ length: n }, (_, i) => ({ createdAt: new Date(Date.UTC(2026, 7, 1, 0, 0, i)) }));
const withSigningKey = (config: Config, pem: string): Config => ({ ...config, audit: { ...config.audit, signingKeyPem: pem, trustedPublicKeysPem: [] } });

/**
 * A trail with one checkpoint signed by `signWith`'s key (as the service signed before a rotation), then more
 * entries. Its own enterprise and admin, not the cast's: a signing round signs every trail whose head moved.
 */
async function trailSignedBefore(ctx: TestContext, signWith: Config) {
  const enterprise = await createEnterprise(ctx);
  const admin = await createUser(ctx, { role: 'admin', enterpriseId: enterprise.id });
  const ids = await appendAuditEntries(ctx, enterprise.id, seconds(6));
  await createCheckpointsService({ db: ctx.db, keys: checkpointKeySource(signWith) }).signChainsAhead();
  await appendAuditEntries(ctx, enterprise.id, [{ createdAt: new Date() }]);
  const old = await ctx.db.selectFrom('audit_checkpoints').selectAll().where('enterprise_id', '=', enterprise.id).executeTakeFirstOrThrow();
  return { enterprise, admin, ids, old };
}

/** Trust in checkpoints of earlier keys after a rotation of the audit signing key (D7.5). */
describe('audit checkpoint keys: rotation of the DATA_DIR key', async () => {
  const dataDir = scratchDir('audit-rotation');
  const ctx = await createTestContext({ env: { DATA_DIR: dataDir } });
  const { call } = calls(ctx);

  it('rotate-audit writes a new key (0600), keeps the old public key trusted; verify still checks the old checkpoints and catches a rewrite they cover', async () => {
    // Signed with the file key before the rotation; the app under test loads its keys only after it.
    const { enterprise, admin, ids, old } = await trailSignedBefore(ctx, ctx.config);
    const lines: string[] = [];
    expect(await runKeysCommand(ctx.db, ctx.config, ['rotate-audit'], (line) => lines.push(line))).toBe(0);
    expect(lines.join('\n')).toContain(`previous key ${old.key_id} stays trusted`);
    expect(statSync(join(dataDir, 'audit-signing-key.pem')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dataDir, 'audit-trusted-keys.pem'), 'utf8')).toContain(old.public_key);

    const fresh = (await call(admin, 'POST', '/audit/checkpoints')).json().data;
    expect(fresh.key_id).not.toBe(old.key_id);
    expect((await call(admin, 'GET', '/audit/verify')).json().data).toMatchObject({ valid: true, checkpoints_checked: 2 });
    // The auditor who kept the old checkpoint hands it back: the service still trusts its key.
    const { id: _id, ...kept } = { ...old, chain_seq: Number(old.chain_seq), entry_count: Number(old.entry_count), signed_at: old.signed_at.toISOString() };
    expect((await call(admin, 'POST', '/audit/verify', { checkpoint: kept })).json().data).toMatchObject({ valid: true });

    await tamper(ctx, (trx) => rewriteEntry(trx, enterprise.id, ids[1]!));
    expect((await call(admin, 'GET', '/audit/verify')).json().data).toMatchObject({
      valid: false, first_invalid_id: old.last_entry_id, failure: 'checkpoint_mismatch', checkpoints_checked: 0,
    });
  });

  it('a second rotation keeps both earlier keys; with no key yet, or a throw-away database, there is nothing to rotate', async () => {
    expect(await runKeysCommand(ctx.db, ctx.config, ['rotate-audit'], () => undefined)).toBe(0);
    expect(readFileSync(join(dataDir, 'audit-trusted-keys.pem'), 'utf8').match(/BEGIN PUBLIC KEY/g)).toHaveLength(2);
    const empty = { ...ctx.config, dataDir: scratchDir('audit-rotation-empty') };
    const lines: string[] = [];
    expect(await runKeysCommand(ctx.db, empty, ['rotate-audit'], (line) => lines.push(line))).toBe(0);
    expect(lines.join(' ')).toContain('creates one when it first signs');
    expect(await runKeysCommand(ctx.db, loadConfig({ DATABASE_URL: 'memory://' }), ['rotate-audit'], () => undefined)).toBe(2);
  });
});

describe('audit checkpoint keys: AUDIT_TRUSTED_PUBLIC_KEYS beside AUDIT_SIGNING_KEY', async () => {
  const previous = signingKeyEnv().AUDIT_SIGNING_KEY;
  const previousDer = createPublicKey(previous).export({ type: 'spki', format: 'der' }).toString('base64');
  const ctx = await createTestContext({ env: { ...signingKeyEnv(), AUDIT_TRUSTED_PUBLIC_KEYS: previousDer } });
  const { call } = calls(ctx);
  const verify = async (user: TestUser) => (await call(user, 'GET', '/audit/verify')).json().data;

  it('rotate-audit with a key from the environment says what to do, naming the value for AUDIT_TRUSTED_PUBLIC_KEYS, and exits 2', async () => {
    const lines: string[] = [];
    expect(await runKeysCommand(ctx.db, withSigningKey(ctx.config, previous), ['rotate-audit'], (line) => lines.push(line))).toBe(2);
    expect(lines.join(' ')).toContain('AUDIT_SIGNING_KEY');
    expect(lines.join(' ')).toContain(`AUDIT_TRUSTED_PUBLIC_KEYS (comma-separated) at the same time: ${previousDer}`);
  });

  it("checkpoints of the trusted earlier key are checked and catch a rewrite; an untrusted key's are not counted", async () => {
    const { enterprise, admin, ids, old } = await trailSignedBefore(ctx, withSigningKey(ctx.config, previous));
    expect(await verify(admin)).toMatchObject({ valid: true, checkpoints_checked: 1 });
    // A checkpoint of a key nobody trusts (as someone able to write the table could add): left out.
    const stranger = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    await appendAuditEntries(ctx, enterprise.id, [{ createdAt: new Date() }]);
    await createCheckpointsService({ db: ctx.db, keys: checkpointKeySource(withSigningKey(ctx.config, stranger)) }).signChainsAhead();
    expect(await ctx.db.selectFrom('audit_checkpoints').select('id').where('enterprise_id', '=', enterprise.id).execute()).toHaveLength(2);
    expect(await verify(admin)).toMatchObject({ valid: true, checkpoints_checked: 1 });

    await tamper(ctx, (trx) => rewriteEntry(trx, enterprise.id, ids[0]!));
    expect(await verify(admin)).toMatchObject({ valid: false, first_invalid_id: old.last_entry_id, failure: 'checkpoint_mismatch' });
  });
});
