// The real service for the end-to-end tests: the built dist/main.js on the embedded engine, with a fresh
// DATA_DIR seeded by `npm run demo` (dist/demo.js), on a free port. Run from the repository root.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const ROLES = { 'Super admin': 'super_admin', 'Client admin': 'admin', Assessor: 'assessor', Reviewer: 'reviewer' };

/** The first person of each role in the demo's printed table. */
function credentialsFrom(output) {
  const people = {};
  for (const match of output.matchAll(/^ {2}(Super admin|Client admin|Assessor|Reviewer) +(\S+@\S+) +(\S+) +(.+)$/gm)) {
    const role = ROLES[match[1]];
    people[role] ??= { email: match[2], password: match[3], name: match[4].trim() };
  }
  for (const role of Object.values(ROLES)) if (!people[role]) throw new Error(`the demo printed no ${role}:\n${output}`);
  return people;
}

export async function startService() {
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error('the build failed');
  const dataDir = mkdtempSync(join(tmpdir(), 'risk-console-e2e-'));
  // Run as root, the embedded engine runs PostgreSQL as "postgres", which must be able to enter it.
  chmodSync(dataDir, 0o711);
  const env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '' };
  const demo = spawnSync(process.execPath, ['dist/demo.js'], { env, encoding: 'utf8' });
  if (demo.status !== 0) throw new Error(`the demo failed:\n${demo.stdout}\n${demo.stderr}`);
  const people = credentialsFrom(demo.stdout);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['dist/main.js'], {
    // The scenarios sign in as the same people over and over, faster than anyone clicks: the per-user limit
    // (100 a minute) is not what they test, so it is raised here. Single sign-on's scenario runs its identity
    // provider on loopback over http (web/e2e/oidc-idp.mjs), an issuer the service refuses unless told.
    env: { ...env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: baseUrl, RATE_LIMIT_PER_MINUTE: '100000', RATE_LIMIT_PER_HOUR: '1000000', SSO_ALLOW_INSECURE_ISSUERS: 'true' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr.on('data', (chunk) => (errors += chunk));
  for (let attempt = 0; ; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}:\n${errors}`);
    if ((await fetch(`${baseUrl}/health`).catch(() => null))?.ok) break;
    if (attempt > 900) throw new Error(`the service did not start:\n${errors}`);
    await sleep(100);
  }
  return {
    baseUrl,
    people,
    /** Where the service keeps its data: the mails it sends without an SMTP server are `.eml` files under mail/. */
    dataDir,
    async stop() {
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
