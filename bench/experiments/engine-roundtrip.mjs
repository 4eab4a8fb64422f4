#!/usr/bin/env node
// Query round trips without HTTP: one connection to the embedded server (Unix socket, a fresh DATA_DIR) and
// one to a PostgreSQL server, 1000 small queries each, interleaved rounds.
//   npm run build && node bench/experiments/engine-roundtrip.mjs      (BENCH_SERVER_URL as in engine-compare.mjs)
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { joinEmbeddedServer } from '../../dist/platform/db/embedded/embedded-server.js';
import { median } from '../support.mjs';

const SERVER_URL = process.env.BENCH_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ROUNDS = 6;
const QUERIES = 1000;

const root = mkdtempSync(join(tmpdir(), 'risk-roundtrip-'));
chmodSync(root, 0o755);
const server = await joinEmbeddedServer(join(root, 'data'));
try {
  const clients = { embedded: new pg.Client({ connectionString: server.url() }), server: new pg.Client({ connectionString: SERVER_URL }) };
  for (const client of Object.values(clients)) await client.connect();
  const times = { embedded: [], server: [] };
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const name of round % 2 === 0 ? ['embedded', 'server'] : ['server', 'embedded']) {
      const started = performance.now();
      for (let i = 0; i < QUERIES; i += 1) await clients[name].query('select $1::int as x, now()', [i]);
      times[name].push((performance.now() - started) / QUERIES);
    }
  }
  for (const [name, list] of Object.entries(times)) {
    console.log(`${name.padEnd(9)} ms/query per round: ${list.map((t) => t.toFixed(3)).join(' ')}  median ${median(list).toFixed(3)}`);
    await clients[name].end();
  }
} finally {
  await server.release();
  rmSync(root, { recursive: true, force: true });
}
