import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { ensureBootstrapSuperAdmin } from '../../src/modules/identity/bootstrap.js';
import { countActiveSuperAdmins, formatStartupBanner } from '../../src/platform/startup-banner.js';
import { StartupCheckError, checkTokenIssuer, explainIssuerChange, runStartupChecks } from '../../src/platform/startup-checks.js';
import { createTestContext } from '../support/app.js';
import { engineUnderTest } from '../support/database.js';
import { withDatabase } from '../support/global-setup.js';
import { scratchDir } from '../support/scratch-dir.js';

async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function failure(env: Record<string, string>): Promise<StartupCheckError> {
  const error = await runStartupChecks(loadConfig(env), 3_000).then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(StartupCheckError);
  return error as StartupCheckError;
}

describe('start-up checks name the variable and the cause before any work (issue: the first ten minutes)', () => {
  it('a database server that does not answer names DATABASE_URL and says the connection was refused', async () => {
    const port = await closedPort();
    const error = await failure({ DATABASE_URL: `postgres://postgres:secret@127.0.0.1:${port}/risk` });
    expect(error.variable).toBe('DATABASE_URL');
    expect(error.message).toMatch(/^DATABASE_URL: nothing accepts connections at 127\.0\.0\.1:\d+ \(connection refused\)/);
    expect(error.message).not.toContain('secret');
  });

  it.skipIf(engineUnderTest() !== 'postgres')('a database missing on a running server names DATABASE_URL and how to create it', async () => {
    const url = withDatabase(inject('serverUrl') as string, 'no_such_database_for_startup_check');
    const error = await failure({ DATABASE_URL: url });
    expect(error.variable).toBe('DATABASE_URL');
    expect(error.message).toContain('has no database "no_such_database_for_startup_check"');
    expect(error.message).toContain('createdb no_such_database_for_startup_check');
  });

  it('a Redis that does not answer names REDIS_URL and says the connection was refused', async () => {
    const port = await closedPort();
    const error = await failure({ DATABASE_URL: 'memory://', REDIS_URL: `redis://127.0.0.1:${port}` });
    expect(error.variable).toBe('REDIS_URL');
    expect(error.message).toContain('connection refused');
    expect(error.message).toContain('unset REDIS_URL');
  });

  it('an embedded database directory that cannot be created names DATA_DIR', async () => {
    const file = join(scratchDir('startup'), 'a-file');
    writeFileSync(file, '');
    const error = await failure({ DATA_DIR: join(file, 'data') });
    expect(error.variable).toBe('DATA_DIR');
    expect(error.message).toContain('cannot be created or written');
  });

  it('a damaged audit key file under DATA_DIR names DATA_DIR and the file, before any signature or verification', async () => {
    const dataDir = scratchDir('startup-keys');
    writeFileSync(join(dataDir, 'audit-trusted-keys.pem'), '-----BEGIN PUBLIC KEY-----\nbm90IGEga2V5\n-----END PUBLIC KEY-----\n');
    const trusted = await failure({ DATA_DIR: dataDir });
    expect(trusted.variable).toBe('DATA_DIR');
    expect(trusted.message).toContain(join(dataDir, 'audit-trusted-keys.pem'));

    const other = scratchDir('startup-keys');
    writeFileSync(join(other, 'audit-signing-key.pem'), 'not a key');
    const signing = await failure({ DATA_DIR: other });
    expect(signing.message).toContain(`${join(other, 'audit-signing-key.pem')} is not an Ed25519 private key`);
  });

  it('a reachable embedded configuration passes', async () => {
    await expect(runStartupChecks(loadConfig({ DATABASE_URL: 'memory://' }))).resolves.toBeUndefined();
  });
});

describe('instances sharing a database agree on the token issuer (issue: PUBLIC_URL mismatch explained)', async () => {
  const ctx = await createTestContext();

  it('records the issuer at first start, stays quiet while it matches, and explains a different one', async () => {
    const first = loadConfig({ PUBLIC_URL: 'https://risk.example.com' });
    expect(await checkTokenIssuer(ctx.db, first)).toMatchObject({ recorded: null, changed: false });
    expect(await checkTokenIssuer(ctx.db, first)).toMatchObject({ recorded: 'https://risk.example.com/auth/v1', changed: false });

    const other = loadConfig({ PORT: '3001' });
    const check = await checkTokenIssuer(ctx.db, other);
    expect(check).toEqual({ recorded: 'https://risk.example.com/auth/v1', current: 'http://127.0.0.1:3001/auth/v1', changed: true });
    const explanation = explainIssuerChange(check);
    expect(explanation).toContain('https://risk.example.com/auth/v1');
    expect(explanation).toContain('http://127.0.0.1:3001/auth/v1');
    expect(explanation).toContain('PUBLIC_URL');
    expect(explanation).toContain('AUTH_ISSUER');
  });
});

describe('the start-up banner (issue: after start, where it listens, the docs, and how to get a first user)', async () => {
  const ctx = await createTestContext();
  const config = loadConfig({ PORT: '3000' });

  it('without a super admin: the addresses, the apikey and both ways to get a first user', async () => {
    expect(await countActiveSuperAdmins(ctx.db)).toBe(0);
    const banner = formatStartupBanner(config, { listening: { host: '127.0.0.1', port: 3000 }, superAdmins: 0, anonKey: 'anon_public_key_value' });
    expect(banner).toContain('listening on http://127.0.0.1:3000');
    expect(banner).toContain('Console:     http://127.0.0.1:3000/\n');
    expect(banner).toContain('http://127.0.0.1:3000/docs');
    expect(banner).toContain('http://127.0.0.1:3000/api/v1/openapi.json');
    expect(banner).toContain('anon_public_key_value');
    expect(banner).toContain('No super admin exists yet');
    expect(banner).toContain('BOOTSTRAP_SUPER_ADMIN_EMAIL and BOOTSTRAP_SUPER_ADMIN_PASSWORD');
    expect(banner).toContain('npm run demo');
    // Without SMTP_URL, the banner says where invitation and recovery mails are written.
    expect(banner).toContain(`.eml files under ${config.mail.dir} (no SMTP_URL)`);
  });

  it('with SMTP_URL: names the mail server without its password', () => {
    const smtp = loadConfig({ SMTP_URL: 'smtps://mailer:very-secret@mail.example:465' });
    const banner = formatStartupBanner(smtp, { listening: { host: '127.0.0.1', port: 3000 }, superAdmins: 1, anonKey: null });
    expect(banner).toContain('Mail:        SMTP smtps://mailer:');
    expect(banner).toContain('mail.example:465');
    expect(banner).not.toContain('very-secret');
  });

  it('with a super admin: says so, without the instructions', async () => {
    await ensureBootstrapSuperAdmin(ctx.db, { email: 'root@example.com', password: 'long-enough-password' });
    const superAdmins = await countActiveSuperAdmins(ctx.db);
    expect(superAdmins).toBe(1);
    const banner = formatStartupBanner(config, { listening: { host: '127.0.0.1', port: 3000 }, superAdmins, anonKey: null });
    expect(banner).toContain('Super admin: one exists');
    expect(banner).not.toContain('BOOTSTRAP_SUPER_ADMIN_EMAIL');
  });

  it('on all interfaces, points at 127.0.0.1 and names the public URL when it differs', () => {
    const exposed = loadConfig({ HOST: '0.0.0.0', PUBLIC_URL: 'https://risk.example.com' });
    const banner = formatStartupBanner(exposed, { listening: { host: '0.0.0.0', port: 3000 }, superAdmins: 1, anonKey: null });
    expect(banner).toContain('listening on http://127.0.0.1:3000 (all interfaces, 0.0.0.0)');
    expect(banner).toContain('Public URL:  https://risk.example.com');
  });
});
