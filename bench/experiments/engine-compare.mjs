#!/usr/bin/env node
// Side by side, in one run: the built service on the embedded engine (the default, a fresh DATA_DIR) and the
// same service on a PostgreSQL server, under the same load on the same data.
//   npm run build && node bench/experiments/engine-compare.mjs
// Options (environment): BENCH_SERVER_URL (default postgres://postgres@127.0.0.1:5432/postgres, a superuser URL:
// the script creates and drops a database of its own there), BENCH_DURATION seconds per measurement (10),
// BENCH_CONNECTIONS (32), BENCH_ROUNDS (2, interleaved so that both engines see the same machine load).
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { call, mean, measure, root, signIn, startService, stop, SUPER_ADMIN } from '../support.mjs';

const SERVER_URL = process.env.BENCH_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const ENTERPRISES = 60;
const ENDPOINTS = ['/api/v1/admin/enterprises', '/api/v1/me'];

if (!existsSync(join(root, 'dist', 'main.js'))) {
  console.error('dist/main.js is missing: run `npm run build` first.');
  process.exit(1);
}

/** The service as deployed (support.mjs), labelled, with the time it took from its start to answering /health. */
async function startLeg(label, database) {
  const service = await startService(label, database);
  return { label, ...service, startMs: Date.now() - service.child.startedAt };
}

async function seed(service) {
  const token = await signIn(service.baseUrl, SUPER_ADMIN.email, SUPER_ADMIN.password);
  for (let i = 0; i < ENTERPRISES; i += 1) {
    await call(service.baseUrl, 'POST', '/api/v1/admin/enterprises', { token, body: { name: `Bench Enterprise ${String(i).padStart(3, '0')}`, country: 'GB' } });
  }
  return token;
}

/** One load of `path` (support.mjs's measure, no warm-up of its own: the run warms every cell up first); answers other than 2xx are counted, not fatal. */
const load = (service, path, token, duration = DURATION) =>
  measure({ url: `${service.baseUrl}${path}`, pid: service.pid, connections: CONNECTIONS, duration, warmup: 0, headers: { authorization: `Bearer ${token}` }, allowNon2xx: true });

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

  const embedded = await startLeg('embedded (PostgreSQL 18, Unix socket)', { DATA_DIR: join(dataRoot, 'data') });
  services.push(embedded);
  const server = await startLeg(`server ${serverDbUrl.host} (PostgreSQL ${rows[0].server_version.split(" ")[0]})`, { DATABASE_URL: serverDbUrl.toString() });
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
          `round ${round} ${path.padEnd(26)} ${service.label.padEnd(42)} ${result.rps.toFixed(0).padStart(6)} req/s  p99 ${String(result.p99).padStart(4)} ms  non-2xx ${result.non2xx}  timeouts ${result.timeouts}`,
        );
      }
    }
  }

  console.log(`\n${CONNECTIONS} connections, ${DURATION} s × ${ROUNDS} rounds per cell, means:`);
  console.log('| endpoint | embedded req/s | embedded p99 ms | server req/s | server p99 ms | ratio embedded/server |');
  console.log('|---|---|---|---|---|---|');
  for (const path of ENDPOINTS) {
    const e = results.get(`${path}|${embedded.label}`);
    const s = results.get(`${path}|${server.label}`);
    const [er, sr] = [mean(e.map((r) => r.rps)), mean(s.map((r) => r.rps))];
    console.log(
      `| GET ${path} | ${er.toFixed(0)} | ${mean(e.map((r) => r.p99)).toFixed(0)} | ${sr.toFixed(0)} | ${mean(s.map((r) => r.p99)).toFixed(0)} | ${(er / sr).toFixed(2)} |`,
    );
  }

  // A restart of the embedded service on its now-initialised DATA_DIR.
  await stop(embedded.child);
  const again = await startLeg('embedded restart', { DATA_DIR: join(dataRoot, 'data') });
  services.push(again);
  console.log(`\nrestart to /health on the same DATA_DIR: ${again.startMs} ms`);
} finally {
  for (const service of services) await stop(service.child);
  await admin.query(`drop database if exists ${benchDb} with (force)`).catch(() => undefined);
  await admin.end().catch(() => undefined);
  rmSync(dataRoot, { recursive: true, force: true });
}
