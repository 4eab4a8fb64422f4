#!/usr/bin/env node
// Side by side, in one run: the built service on the embedded engine (the default, a fresh DATA_DIR) and the
// same service on a PostgreSQL server, under the same load on the same data.
//   npm run build && node bench/engine-compare.mjs
// Options (environment): BENCH_SERVER_URL (default postgres://postgres@127.0.0.1:5432/postgres, a superuser URL:
// the script creates and drops a database of its own there), BENCH_DURATION seconds per measurement (10),
// BENCH_CONNECTIONS (32), BENCH_ROUNDS (2, interleaved so that both engines see the same machine load).
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import pg from 'pg';

const SERVER_URL = process.env.BENCH_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const ENTERPRISES = 60;
const ADMIN = { email: 'bench.admin@bench.example', password: 'Bench-Admin-2026' };
const KEYS = { AUTH_ANON_KEY: 'anon_bench_key_0123456789abcdef', AUTH_SERVICE_ROLE_KEY: 'service_bench_key_0123456789abcdef' };
const ENDPOINTS = ['/api/v1/admin/enterprises', '/api/v1/me'];

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

async function startService(label, env) {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const started = Date.now();
  const child = spawn(process.execPath, ['dist/main.js'], {
    env: {
      ...process.env,
      ...KEYS,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseUrl,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '1000000',
      RATE_LIMIT_PER_HOUR: '100000000',
      BOOTSTRAP_SUPER_ADMIN_EMAIL: ADMIN.email,
      BOOTSTRAP_SUPER_ADMIN_PASSWORD: ADMIN.password,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${label}: the service exited with ${child.exitCode}`);
    const health = await fetch(`${baseUrl}/health`).catch(() => null);
    if (health?.status === 200) break;
    await sleep(50);
  }
  const stop = () => new Promise((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', resolve), child.kill('SIGTERM'))));
  return { label, baseUrl, child, stop, startMs: Date.now() - started };
}

async function call(service, method, path, token, body) {
  const response = await fetch(`${service.baseUrl}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : { apikey: KEYS.AUTH_ANON_KEY }),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (!response.ok) throw new Error(`${service.label}: ${method} ${path} → ${response.status} ${await response.text()}`);
  return response.json();
}

async function seed(service) {
  const { access_token: token } = await call(service, 'POST', '/auth/v1/token?grant_type=password', null, ADMIN);
  for (let i = 0; i < ENTERPRISES; i += 1) {
    await call(service, 'POST', '/api/v1/admin/enterprises', token, { name: `Bench Enterprise ${String(i).padStart(3, '0')}`, country: 'GB' });
  }
  return token;
}

function load(service, path, token, duration = DURATION) {
  return new Promise((resolve, reject) => {
    autocannon(
      { url: `${service.baseUrl}${path}`, connections: CONNECTIONS, duration, headers: { authorization: `Bearer ${token}` } },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

const dataRoot = mkdtempSync(join(tmpdir(), 'risk-bench-'));
chmodSync(dataRoot, 0o755);
const benchDb = `bench_${process.pid}`;
const admin = new pg.Client({ connectionString: SERVER_URL });
const services = [];
try {
  await admin.connect();
  const { rows } = await admin.query('show server_version');
  await admin.query(`create database ${benchDb}`);
  const serverDbUrl = new URL(SERVER_URL);
  serverDbUrl.pathname = `/${benchDb}`;

  const embedded = await startService('embedded (PostgreSQL 18, Unix socket)', { DATA_DIR: join(dataRoot, 'data') });
  services.push(embedded);
  const server = await startService(`server ${serverDbUrl.host} (PostgreSQL ${rows[0].server_version.split(" ")[0]})`, { DATABASE_URL: serverDbUrl.toString() });
  services.push(server);
  console.log(`first start to /health: embedded ${embedded.startMs} ms (initdb included), server ${server.startMs} ms`);
  const tokens = new Map([[embedded, await seed(embedded)], [server, await seed(server)]]);

  for (const service of services) for (const path of ENDPOINTS) await load(service, path, tokens.get(service), 2); // warm-up
  const results = new Map();
  for (let round = 1; round <= ROUNDS; round += 1) {
    for (const path of ENDPOINTS) {
      for (const service of round % 2 === 1 ? services : [...services].reverse()) {
        const result = await load(service, path, tokens.get(service));
        const key = `${path}|${service.label}`;
        results.set(key, [...(results.get(key) ?? []), result]);
        console.log(
          `round ${round} ${path.padEnd(26)} ${service.label.padEnd(42)} ${result.requests.average.toFixed(0).padStart(6)} req/s  p99 ${String(result.latency.p99).padStart(4)} ms  non-2xx ${result.non2xx}  errors ${result.errors}`,
        );
      }
    }
  }

  const mean = (list, pick) => list.reduce((sum, r) => sum + pick(r), 0) / list.length;
  console.log(`\n${CONNECTIONS} connections, ${DURATION} s × ${ROUNDS} rounds per cell, means:`);
  console.log('| endpoint | embedded req/s | embedded p99 ms | server req/s | server p99 ms | ratio embedded/server |');
  console.log('|---|---|---|---|---|---|');
  for (const path of ENDPOINTS) {
    const e = results.get(`${path}|${embedded.label}`);
    const s = results.get(`${path}|${server.label}`);
    const [er, sr] = [mean(e, (r) => r.requests.average), mean(s, (r) => r.requests.average)];
    console.log(
      `| GET ${path} | ${er.toFixed(0)} | ${mean(e, (r) => r.latency.p99).toFixed(0)} | ${sr.toFixed(0)} | ${mean(s, (r) => r.latency.p99).toFixed(0)} | ${(er / sr).toFixed(2)} |`,
    );
  }

  // A restart of the embedded service on its now-initialised DATA_DIR.
  await embedded.stop();
  const again = await startService('embedded restart', { DATA_DIR: join(dataRoot, 'data') });
  services.push(again);
  console.log(`\nrestart to /health on the same DATA_DIR: ${again.startMs} ms`);
} finally {
  for (const service of services) await service.stop();
  await admin.query(`drop database if exists ${benchDb} with (force)`).catch(() => undefined);
  await admin.end().catch(() => undefined);
  rmSync(dataRoot, { recursive: true, force: true });
}
