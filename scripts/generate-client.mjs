// `npm run client:generate`: regenerates packages/client/src/schema.d.ts from the OpenAPI document the
// service itself serves. It starts the built service on a free port with a throw-away DATA_DIR (the
// embedded engine), reads GET /api/v1/openapi.json, and stops it.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { renderSchema } from '../packages/client/scripts/render-schema.mjs';

const SCHEMA_FILE = 'packages/client/src/schema.d.ts';

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

// The service only: the console is built from the client this script writes.
const build = spawnSync(process.execPath, ['scripts/build.mjs', '--service-only'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const dataDir = mkdtempSync(join(tmpdir(), 'risk-client-generate-'));
// Run as root, the embedded engine runs PostgreSQL as "postgres", which must be able to enter the directory.
chmodSync(dataDir, 0o711);
const port = await freePort();
const baseUrl = `http://127.0.0.1:${port}`;
const child = spawn(process.execPath, ['dist/main.js'], {
  env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: baseUrl, LOG_LEVEL: 'warn', DATABASE_URL: '' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
try {
  let document = null;
  for (let attempt = 0; attempt < 900 && document === null; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
    const response = await fetch(`${baseUrl}/api/v1/openapi.json`).catch(() => null);
    if (response?.ok) document = await response.json();
    else await sleep(100);
  }
  if (document === null) throw new Error('the service did not serve its OpenAPI document within 90 s');
  writeFileSync(SCHEMA_FILE, await renderSchema(document));
  console.log(`Wrote ${SCHEMA_FILE} (${Object.keys(document.paths).length} paths).`);
} finally {
  child.kill('SIGTERM');
  await new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve)));
  rmSync(dataDir, { recursive: true, force: true });
}
