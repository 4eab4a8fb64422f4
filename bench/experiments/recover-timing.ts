/**
 * Whether POST /auth/v1/recover tells a known address from an unknown one by its timing: requests for a known
 * active user and for unknown addresses, alternated in one run through the HTTP stack (app.inject), compared
 * by the ratio of their medians and 90th percentiles (1.00: indistinguishable). Mail goes to .eml files in a
 * scratch folder; the database is a throw-away embedded server (memory://).
 *
 *   npx tsx bench/experiments/recover-timing.ts [requests per side, default 400]
 *
 * Nothing here comes from bench/support.mjs: the app is built in this process and called through app.inject,
 * with no service process to start or measure, and its quantiles are its own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { loadAuthSecrets } from '../../src/platform/auth/secrets.js';
import { openDatabase } from '../../src/platform/db/engine.js';
import { setUpSchema } from '../../src/platform/db/schema-setup.js';
import { createMemoryRateLimitStore } from '../../src/platform/http/rate-limit/memory-store.js';
import { createMonitor } from '../../src/platform/monitoring/alert-monitor.js';

const perSide = Number(process.argv[2] ?? '400');
const dataDir = mkdtempSync(join(tmpdir(), 'bench-recover-'));
const database = await openDatabase({ kind: 'embedded-memory' });
try {
  const config = loadConfig({
    DATABASE_URL: 'memory://',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '1000000',
    RATE_LIMIT_PER_HOUR: '100000000',
    RATE_LIMIT_RECOVERY_PER_HOUR: '100000000',
  });
  // As the service does: the owner migrates and grants the runtime role its rights.
  await setUpSchema(config, database);
  const secrets = await loadAuthSecrets(database.db, config, () => undefined);
  const silent = { error: () => undefined, warn: () => undefined, info: () => undefined };
  const monitor = createMonitor(database.db, silent);
  const app = await buildApp({ config, database, secrets, monitor, rateLimitStore: createMemoryRateLimitStore(), logger: false });
  await database.db.insertInto('users').values({ email: 'known@example.test', full_name: 'Known', password_hash: null }).execute();
  const time = async (email: string) => {
    const started = performance.now();
    const response = await app.inject({ method: 'POST', url: '/auth/v1/recover', headers: { apikey: secrets.anonKey }, payload: { email } });
    if (response.statusCode !== 200) throw new Error(`recover answered ${response.statusCode}`);
    return performance.now() - started;
  };
  for (let i = 0; i < 50; i += 1) await time(i % 2 === 0 ? 'known@example.test' : `warm-${i}@example.test`);
  const known: number[] = [];
  const unknown: number[] = [];
  for (let i = 0; i < perSide; i += 1) {
    // Alternated, so that the machine's load falls on both sides alike.
    known.push(await time('known@example.test'));
    unknown.push(await time(`nobody-${i}@example.test`));
  }
  const at = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.floor(q * (values.length - 1))]!;
  const line = (label: string, values: number[]) => `${label}: median ${at(values, 0.5).toFixed(3)} ms, p90 ${at(values, 0.9).toFixed(3)} ms`;
  process.stdout.write(
    `${line('known  ', known)}\n${line('unknown', unknown)}\n` +
      `ratio known/unknown: median ${(at(known, 0.5) / at(unknown, 0.5)).toFixed(2)}, p90 ${(at(known, 0.9) / at(unknown, 0.9)).toFixed(2)} (${perSide} each)\n`,
  );
  await app.close();
  await monitor.close();
} finally {
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
}
