#!/usr/bin/env node
// The control library's import and export at their limit: 5,000 rows (1,000 key controls × 5 sub-controls with
// results), against the built service on the embedded engine (a fresh DATA_DIR), as a client admin would send it.
//   npm run build && node bench/control-import.mjs
// Prints the time of a dry run, of the import itself, of an import of the same file again (all unchanged) and of
// the CSV and XLSX exports. Options (environment): BENCH_ROWS (5000), BENCH_DATABASE_URL (a server instead).
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const ROWS = Number(process.env.BENCH_ROWS ?? 5000);
const KEYS = { AUTH_ANON_KEY: 'anon_bench_key_0123456789abcdef', AUTH_SERVICE_ROLE_KEY: 'service_bench_key_0123456789abcdef' };
const SUPER = { email: 'bench.super@bench.example', password: 'Bench-Super-2026' };
const CLIENT_ADMIN = { email: 'bench.client@bench.example', password: 'Bench-Client-2026' };

if (!existsSync('dist/main.js')) {
  console.error('dist/main.js is missing: run `npm run build` first.');
  process.exit(1);
}

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

const dataRoot = mkdtempSync(join(tmpdir(), 'risk-bench-import-'));
chmodSync(dataRoot, 0o755);
const port = await freePort();
const baseUrl = `http://127.0.0.1:${port}`;
const child = spawn(process.execPath, ['dist/main.js'], {
  env: {
    ...process.env,
    ...KEYS,
    ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : { DATA_DIR: join(dataRoot, 'data') }),
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: baseUrl,
    LOG_LEVEL: 'warn',
    BOOTSTRAP_SUPER_ADMIN_EMAIL: SUPER.email,
    BOOTSTRAP_SUPER_ADMIN_PASSWORD: SUPER.password,
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});

async function call(method, path, { token, body, contentType = 'application/json', headers = {} } = {}) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { apikey: KEYS.AUTH_ANON_KEY, ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': contentType } : {}), ...headers },
    ...(body ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
  if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${await response.text()}`);
  return response;
}
const signIn = async (user) => (await (await call('POST', '/auth/v1/token?grant_type=password', { body: user })).json()).access_token;

const timed = async (label, fn) => {
  const started = performance.now();
  const result = await fn();
  const ms = performance.now() - started;
  console.log(`${label.padEnd(44)} ${(ms / 1000).toFixed(2).padStart(7)} s`);
  return result;
};

try {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
    if ((await fetch(`${baseUrl}/health`).catch(() => null))?.status === 200) break;
    await sleep(50);
  }
  const superToken = await signIn(SUPER);
  const enterprise = (await (await call('POST', '/api/v1/admin/enterprises', { token: superToken, body: { name: 'Bench Import Ltd', country: 'GB' } })).json()).data;
  const user = (await (await call('POST', `/api/v1/admin/enterprises/${enterprise.id}/users`, { token: superToken, body: { email: CLIENT_ADMIN.email, full_name: 'Bench Client Admin', role: 'admin' } })).json()).data;
  await call('PUT', `/auth/v1/admin/users/${user.user_id}`, { token: KEYS.AUTH_SERVICE_ROLE_KEY, body: { password: CLIENT_ADMIN.password } });
  const token = await signIn(CLIENT_ADMIN);

  const tods = ['A', 'B', 'C', 'D', 'E'];
  const lines = ['key_control,key_control_description,sub_control,sub_control_description,tod,toe,testing_date,tested_by,evidence_notes'];
  for (let i = 0; i < ROWS; i += 1) {
    const key = Math.floor(i / 5);
    lines.push(
      `Key control ${String(key).padStart(4, '0')},What key control ${key} achieves,Sub-control ${i},What is tested in ${i},${tods[i % 5]},${(i % 5) + 1},2026-0${(i % 9) + 1}-15,Tester ${i % 7},"Evidence for ${i}, sampled"`,
    );
  }
  const file = `${lines.join('\n')}\n`;
  console.log(`${ROWS.toLocaleString('en-US')} rows, ${(file.length / 1024).toFixed(0)} KiB, ${process.env.BENCH_DATABASE_URL ? 'server' : 'embedded engine'}`);
  const importFile = (query) => call('POST', `/api/v1/controls/import${query}`, { token, body: file, contentType: 'text/csv' }).then((r) => r.json());
  const dry = await timed('dry run (checked and rolled back)', () => importFile('?dry_run=true'));
  const real = await timed('import', () => importFile(''));
  const again = await timed('import of the same file (all unchanged)', () => importFile(''));
  await timed('export as CSV', () => call('GET', '/api/v1/controls/export?format=csv', { token }).then((r) => r.arrayBuffer()));
  await timed('export as XLSX', () => call('GET', '/api/v1/controls/export?format=xlsx', { token }).then((r) => r.arrayBuffer()));
  console.log(JSON.stringify({ dry: dry.data.sub_controls, real: real.data.sub_controls, again: again.data.sub_controls }));
} finally {
  if (child.exitCode === null) {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
  rmSync(dataRoot, { recursive: true, force: true });
}
