/**
 * What a password sign-in costs at the service's scrypt cost (N=2^17, r=8, p=1): the median of a few
 * sign-ins through the HTTP stack (wall time and the process's CPU time), on a scratch database of a
 * PostgreSQL server (dropped afterwards).
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/experiments/sign-in-cost.ts
 *
 * Nothing here comes from bench/support.mjs: the app is built in this process and called through app.inject,
 * with no service process to start or measure from /proc.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createPasswordHasher } from '../../src/modules/identity/passwords.js';
import { loadAuthSecrets } from '../../src/platform/auth/secrets.js';
import { openDatabase } from '../../src/platform/db/engine.js';
import { migrateToLatest } from '../../src/platform/db/migrator.js';
import { createMemoryRateLimitStore } from '../../src/platform/http/rate-limit/memory-store.js';
import { createMonitor } from '../../src/platform/monitoring/alert-monitor.js';

const serverUrl = process.env['BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `bench_sign_in_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
await admin.query(`create database ${name}`);
const url = new URL(serverUrl);
url.pathname = `/${name}`;
const database = await openDatabase({ kind: 'postgres', url: url.toString() });
try {
  await migrateToLatest(database);
  const config = loadConfig({ DATABASE_URL: url.toString(), LOG_LEVEL: 'silent', RATE_LIMIT_SIGN_IN_PER_MINUTE: '1000' });
  const secrets = await loadAuthSecrets(database.db, config, () => undefined);
  const silent = { error: () => undefined, warn: () => undefined, info: () => undefined };
  const monitor = createMonitor(database.db, silent);
  const app = await buildApp({ config, database, secrets, monitor, rateLimitStore: createMemoryRateLimitStore(), logger: false });
  const password = 'correct horse battery staple';
  await database.db
    .insertInto('users')
    .values({ email: 'bench@example.test', full_name: 'Bench', password_hash: await createPasswordHasher().hash(password), is_super_admin: true })
    .execute();
  const times: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < 7; i += 1) {
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const response = await app.inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=password',
      headers: { apikey: secrets.anonKey },
      payload: { email: 'bench@example.test', password },
    });
    if (response.statusCode !== 200) throw new Error(`sign-in answered ${response.statusCode}: ${response.body}`);
    times.push(performance.now() - started);
    const used = process.cpuUsage(cpuBefore);
    cpu.push((used.user + used.system) / 1000);
  }
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  // Wall time depends on what else the machine runs; the process's CPU time (scrypt's thread included) does not.
  process.stdout.write(
    `sign-in at N=2^17 over 7: wall median ${times[3]!.toFixed(0)} ms (min ${times[0]!.toFixed(0)}, max ${times[6]!.toFixed(0)}); ` +
      `CPU median ${cpu[3]!.toFixed(0)} ms\n`,
  );
  await app.close();
  await monitor.close();
} finally {
  await database.close();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
}
