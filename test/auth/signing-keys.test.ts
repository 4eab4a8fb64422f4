import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT, decodeProtectedHeader } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { signAccessToken } from '../../src/modules/identity/provider/access-token.js';
import { runKeysCommand } from '../../src/keys-command.js';
import { loadAuthSecrets, type AuthSecrets } from '../../src/platform/auth/secrets.js';
import { RETIRED_KEY_GRACE_SECONDS } from '../../src/platform/auth/signing-keys.js';
import { createTokenVerifier } from '../../src/platform/auth/token-verifier.js';
import { createTestContext, type TestContext } from '../support/app.js';
import { freshDatabase } from '../support/database.js';
import { bearer, createUser, type TestUser } from '../support/factories.js';
import { providerCalls } from '../support/provider.js';
import { scratchDir } from '../support/scratch-dir.js';

const kidOf = (token: string) => decodeProtectedHeader(token).kid;

/** A token of a fresh session, signed with the given secrets (as another instance would sign it). */
async function tokenSignedBy(ctx: TestContext, secrets: AuthSecrets, user: TestUser) {
  const session = await ctx.db.insertInto('auth_sessions').values({ user_id: user.id }).returning('id').executeTakeFirstOrThrow();
  const claims = { issuer: ctx.config.auth.issuer, audience: ctx.config.auth.audience };
  return (await signAccessToken({ userId: user.id, email: user.email, sessionId: session.id }, secrets, claims)).token;
}

describe('signing key rotation (npm run keys -- rotate)', async () => {
  const ctx = await createTestContext();
  const { signIn, me } = providerCalls(ctx);
  const user = await createUser(ctx, { role: 'admin' });
  const jwksKids = async () => ((await ctx.app.inject({ method: 'GET', url: '/auth/v1/.well-known/jwks.json' })).json().keys as Array<{ kid: string }>).map((key) => key.kid);

  it('a new key signs; the old one stays in the JWKS and verifies until its last token has expired', async () => {
    const old = ctx.secrets.signingKey;
    const before = await signIn(user);
    expect(kidOf(before.access_token)).toBe(old.kid);

    const lines: string[] = [];
    expect(await runKeysCommand(ctx.db, ctx.config, ['rotate'], (line) => lines.push(line))).toBe(0);
    const retired = await ctx.db.selectFrom('auth_signing_keys').selectAll().where('kid', '=', old.kid).executeTakeFirstOrThrow();
    expect(retired.retired_at).not.toBeNull();
    // Verifies for a token's lifetime and then some: at least an hour after the rotation.
    expect(retired.verify_until!.getTime() - retired.retired_at!.getTime()).toBe(RETIRED_KEY_GRACE_SECONDS * 1000);
    expect(RETIRED_KEY_GRACE_SECONDS).toBeGreaterThan(3600 + 30);

    // Another instance that loads the ring now signs with the new key; this one, not yet reloaded,
    // accepts its tokens at once (an unknown kid reloads the ring).
    const other = await loadAuthSecrets(ctx.db, ctx.config, () => undefined);
    expect(other.signingKey.kid).not.toBe(old.kid);
    expect(lines.join('\n')).toContain(other.signingKey.kid);
    const fromOther = await tokenSignedBy(ctx, other, user);
    expect((await me(fromOther)).statusCode).toBe(200);

    // This instance signs with the new key once it reloads (every minute), and the old token still works.
    await ctx.secrets.signingKeys.refresh();
    const after = await signIn(user);
    expect(kidOf(after.access_token)).toBe(other.signingKey.kid);
    expect((await me(before.access_token)).statusCode).toBe(200);
    expect(await jwksKids()).toEqual(expect.arrayContaining([old.kid, other.signingKey.kid]));

    // Past its grace, the old key is gone from the JWKS and verifies nothing any more.
    await ctx.db.updateTable('auth_signing_keys').set({ verify_until: new Date(Date.now() - 1000) }).where('kid', '=', old.kid).execute();
    await ctx.secrets.signingKeys.refresh();
    const lateOldToken = await new SignJWT({ email: user.email, role: 'authenticated', session_id: (await ctx.db.insertInto('auth_sessions').values({ user_id: user.id }).returning('id').executeTakeFirstOrThrow()).id })
      .setProtectedHeader({ alg: 'ES256', kid: old.kid })
      .setSubject(user.id)
      .setIssuer(ctx.config.auth.issuer)
      .setAudience(ctx.config.auth.audience)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(old.privateKey);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(lateOldToken) })).statusCode).toBe(401);
    expect(await jwksKids()).toEqual([other.signingKey.kid]);
  });

  it('npm run keys prints the API keys and the signing keys, to the operator who runs it', async () => {
    const lines: string[] = [];
    expect(await runKeysCommand(ctx.db, ctx.config, [], (line) => lines.push(line))).toBe(0);
    const text = lines.join('\n');
    expect(text).toContain(`AUTH_ANON_KEY: ${ctx.secrets.anonKey}`);
    expect(text).toContain(`AUTH_SERVICE_ROLE_KEY: ${ctx.secrets.serviceRoleKey}`);
    expect(text).toContain(`${ctx.secrets.signingKey.kid}  signs`);
    expect(await runKeysCommand(ctx.db, ctx.config, ['bogus'], () => undefined)).toBe(2);
  });
});

describe('signing keys supplied by the operator (AUTH_SIGNING_KEY, AUTH_SIGNING_KEY_FILE)', async () => {
  const database = await freshDatabase();
  afterAll(() => database.close());
  const base = { PUBLIC_URL: 'http://service.test' };
  const config = loadConfig(base);
  const subject = { userId: '00000000-0000-4000-8000-000000000001', email: 'a@example.test', sessionId: '00000000-0000-4000-8000-000000000002' };
  const claims = { issuer: config.auth.issuer, audience: config.auth.audience };
  const pem = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;

  it('a PEM key from the environment signs; the generated key it replaces keeps verifying; rotate by command is refused', async () => {
    const generated = await loadAuthSecrets(database.db, config, () => undefined);
    const oldToken = (await signAccessToken(subject, generated, claims)).token;

    const withPem = loadConfig({ ...base, AUTH_SIGNING_KEY: pem });
    const supplied = await loadAuthSecrets(database.db, withPem, () => undefined);
    expect(supplied.signingKey.kid).not.toBe(generated.signingKey.kid);
    const verify = createTokenVerifier(withPem, supplied);
    expect((await verify(oldToken)).sub).toBe(subject.userId);
    expect((await verify((await signAccessToken(subject, supplied, claims)).token)).sub).toBe(subject.userId);
    // The same key at the next start: the same kid (its thumbprint), no further rotation.
    expect((await loadAuthSecrets(database.db, withPem, () => undefined)).signingKey.kid).toBe(supplied.signingKey.kid);
    // The private key stays where the operator keeps it: only its public half is stored.
    const row = await database.db.selectFrom('auth_signing_keys').selectAll().where('kid', '=', supplied.signingKey.kid).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ private_jwk: null, source: 'AUTH_SIGNING_KEY', retired_at: null });

    const lines: string[] = [];
    expect(await runKeysCommand(database.db, withPem, ['rotate'], (line) => lines.push(line))).toBe(2);
    expect(lines.join(' ')).toContain('AUTH_SIGNING_KEY');
  });

  it('a JWK file (with its own kid) replaces the previous key the same way', async () => {
    const jwk = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
    const path = join(scratchDir('signing-key'), 'signing.jwk.json');
    writeFileSync(path, JSON.stringify({ ...jwk, kid: 'ops-2026-11' }));
    const previous = await loadAuthSecrets(database.db, loadConfig({ ...base, AUTH_SIGNING_KEY: pem }), () => undefined);
    const previousToken = (await signAccessToken(subject, previous, claims)).token;
    const fromFile = loadConfig({ ...base, AUTH_SIGNING_KEY_FILE: path });
    const secrets = await loadAuthSecrets(database.db, fromFile, () => undefined);
    expect(secrets.signingKey.kid).toBe('ops-2026-11');
    expect(secrets.signingKey.publicJwk).not.toHaveProperty('d');
    expect((await createTokenVerifier(fromFile, secrets)(previousToken)).sub).toBe(subject.userId);
  });

  it('without a supplied key any more, the service goes back to a generated key; the supplied one keeps verifying', async () => {
    const supplied = await loadAuthSecrets(database.db, loadConfig({ ...base, AUTH_SIGNING_KEY: pem }), () => undefined);
    const suppliedToken = (await signAccessToken(subject, supplied, claims)).token;
    const generatedKids: string[] = [];
    const generated = await loadAuthSecrets(database.db, config, (message) => generatedKids.push(message));
    expect(generated.signingKey.kid).not.toBe(supplied.signingKey.kid);
    expect(generatedKids.join(' ')).toContain(generated.signingKey.kid);
    expect((await createTokenVerifier(config, generated)(suppliedToken)).sub).toBe(subject.userId);
  });

  it('a key that is not an EC P-256 private key stops the start with the variable named', async () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
    await expect(loadAuthSecrets(database.db, loadConfig({ ...base, AUTH_SIGNING_KEY: rsa }), () => undefined)).rejects.toThrow(/AUTH_SIGNING_KEY/);
    await expect(loadAuthSecrets(database.db, loadConfig({ ...base, AUTH_SIGNING_KEY: 'not a key' }), () => undefined)).rejects.toThrow(/AUTH_SIGNING_KEY/);
    await expect(loadAuthSecrets(database.db, loadConfig({ ...base, AUTH_SIGNING_KEY_FILE: '/nonexistent/key.pem' }), () => undefined)).rejects.toThrow(
      /AUTH_SIGNING_KEY_FILE/,
    );
  });
});
