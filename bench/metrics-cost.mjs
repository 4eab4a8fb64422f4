// What the Prometheus metrics cost on the request path: the same build run twice on one PostgreSQL database,
// once with metrics on (METRICS_PORT: the request hooks, the pool and query observers, a scrape every 15 s
// as Prometheus would) and once without (no METRICS_* variable: nothing collected), measured side by side in
// one run with autocannon, endpoint by endpoint, alternating which server goes first each round. Reported:
// req/s and the server's CPU ms per request (steadier than req/s on a shared machine), and their ratios.
//
//   node bench/metrics-cost.mjs [--duration 8] [--rounds 4] [--warmup 3] [--connections 32] [--no-build]
//                               [--database-url postgres://postgres@127.0.0.1:5432]
//
// The database `bench_metrics` is dropped and created afresh, migrated and seeded through the service's API.
// Every server listens on a free port the system picks.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at === -1 ? fallback : args[at + 1];
};
const DURATION = Number(option('duration', '8'));
const ROUNDS = Number(option('rounds', '4'));
const WARMUP = Number(option('warmup', '3'));
const CONNECTIONS = Number(option('connections', '32'));
const SERVER_URL = option('database-url', 'postgres://postgres@127.0.0.1:5432');
const DATABASE = 'bench_metrics';
const DATABASE_URL = `${SERVER_URL}/${DATABASE}`;
const ANON_KEY = 'bench-anon-key-0123456789abcdef';
const SERVICE_ROLE_KEY = 'bench-service-role-key-0123456789abcdef';
const ADMIN = { email: 'bench-super@example.test', password: 'bench super password' };

const children = [];
process.on('exit', () => children.forEach((child) => child.kill('SIGTERM')));

/** A port the system reports free now (the server started next binds it). */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

function start(name, env) {
  const child = spawn(process.execPath, ['dist/main.js'], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr.on('data', (chunk) => process.stderr.write(`[${name}] ${chunk}`));
  children.push(child);
  return child;
}

async function stop(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

async function waitFor(url) {
  for (let i = 0; i < 300; i += 1) {
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${url} did not come up`);
}

async function call(base, method, path, { token, apikey, body } = {}) {
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (apikey) headers.apikey = apikey;
  const response = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text === '' ? null : JSON.parse(text);
}

async function seed(base) {
  const signIn = async (email, password) =>
    (await call(base, 'POST', '/auth/v1/token?grant_type=password', { apikey: ANON_KEY, body: { email, password } })).access_token;
  const superToken = await signIn(ADMIN.email, ADMIN.password);
  let home;
  for (let i = 0; i < 30; i += 1) {
    home = (await call(base, 'POST', '/api/v1/admin/enterprises', { token: superToken, body: { name: `Bench Enterprise ${i}`, country: 'GB' } })).data;
  }
  const user = (await call(base, 'POST', `/api/v1/admin/enterprises/${home.id}/users`, {
    token: superToken,
    body: { email: 'bench-admin@example.test', full_name: 'Bench Admin', role: 'admin' },
  })).data;
  await call(base, 'PUT', `/auth/v1/admin/users/${user.user_id}`, { token: SERVICE_ROLE_KEY, apikey: SERVICE_ROLE_KEY, body: { password: 'bench admin password' } });
  return { superToken, adminToken: await signIn('bench-admin@example.test', 'bench admin password') };
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux; null elsewhere). */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

async function measure(url, headers, pid, scrapeUrl) {
  await autocannon({ url, connections: CONNECTIONS, duration: WARMUP, headers });
  // Prometheus scrapes every 15 s; the server with metrics answers those scrapes during its run.
  const scrapes = scrapeUrl === null ? null : setInterval(() => void fetch(scrapeUrl).then((r) => r.text()), 15_000);
  scrapes?.unref();
  if (scrapeUrl !== null) await fetch(scrapeUrl).then((r) => r.text());
  const cpuBefore = cpuSeconds(pid);
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  const cpuAfter = cpuSeconds(pid);
  if (scrapes !== null) clearInterval(scrapes);
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  const cpuMs = cpuBefore === null || cpuAfter === null ? null : ((cpuAfter - cpuBefore) * 1000) / result.requests.total;
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, cpuMs };
}

async function main() {
  if (!args.includes('--no-build')) {
    const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
  const admin = new pg.Client({ connectionString: `${SERVER_URL}/postgres` });
  await admin.connect();
  await admin.query(`drop database if exists ${DATABASE} with (force)`);
  await admin.query(`create database ${DATABASE}`);
  await admin.end();

  const common = {
    DATABASE_URL,
    HOST: '127.0.0.1',
    AUTH_ANON_KEY: ANON_KEY,
    AUTH_SERVICE_ROLE_KEY: SERVICE_ROLE_KEY,
    BOOTSTRAP_SUPER_ADMIN_EMAIL: ADMIN.email,
    BOOTSTRAP_SUPER_ADMIN_PASSWORD: ADMIN.password,
    RATE_LIMIT_PER_MINUTE: '1000000',
    RATE_LIMIT_PER_HOUR: '100000000',
    LOG_LEVEL: 'info',
    NODE_ENV: 'production',
  };
  const [seedPort, offPort, onPort, metricsPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  // Seeded through a server of its own, stopped before measuring: both measured servers start fresh, alike
  // but for the metrics (the one that seeded would carry a warmer heap and JIT into the comparison).
  const seeder = start('seed', { ...common, PORT: String(seedPort), PUBLIC_URL: `http://127.0.0.1:${seedPort}` });
  await waitFor(`http://127.0.0.1:${seedPort}/health`);
  const seeded = await seed(`http://127.0.0.1:${seedPort}`);
  await stop(seeder);
  // One issuer for all three (the seeder's), so that the seeded tokens work on both.
  const issuer = { PUBLIC_URL: `http://127.0.0.1:${seedPort}` };
  const off = { name: 'without metrics', base: `http://127.0.0.1:${offPort}`, scrape: null };
  const on = { name: 'with metrics', base: `http://127.0.0.1:${onPort}`, scrape: `http://127.0.0.1:${metricsPort}/metrics` };
  off.child = start('without', { ...common, ...issuer, PORT: String(offPort) });
  on.child = start('with', { ...common, ...issuer, PORT: String(onPort), METRICS_PORT: String(metricsPort) });
  await waitFor(`${off.base}/health`);
  await waitFor(`${on.base}/health`);
  const exposition = await (await fetch(on.scrape)).text();
  if (!exposition.includes('risk_http_request_duration_seconds')) throw new Error('the metrics listener does not answer');

  const endpoints = [
    { path: '/api/v1/me', headers: { authorization: `Bearer ${seeded.adminToken}` } },
    { path: '/api/v1/controls/key-controls', headers: { authorization: `Bearer ${seeded.adminToken}` } },
    { path: '/api/v1/admin/enterprises', headers: { authorization: `Bearer ${seeded.superToken}` } },
  ];
  const runs = new Map(endpoints.map(({ path }) => [path, { on: [], off: [] }]));
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const { path, headers } of endpoints) {
      const order = round % 2 === 0 ? [off, on] : [on, off];
      for (const server of order) {
        const result = await measure(`${server.base}${path}`, headers, server.child.pid, server.scrape);
        runs.get(path)[server === on ? 'on' : 'off'].push(result);
        const cpu = result.cpuMs === null ? '' : `, ${result.cpuMs.toFixed(3)} CPU ms/request`;
        console.log(`round ${round + 1} ${path} ${server.name}: ${result.rps.toFixed(0)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms${cpu}`);
      }
    }
  }

  const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;
  const median = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  };
  const pct = (ratio) => `${((ratio - 1) * 100).toFixed(1)} %`;
  console.log(`\nautocannon, ${CONNECTIONS} connections, ${DURATION} s x ${ROUNDS} rounds per server and endpoint, node ${process.version}`);
  console.log('per endpoint: means, and the median of the rounds\' ratios (each round measures both servers back to back)');
  for (const [path, { on: withRuns, off: withoutRuns }] of runs) {
    const cpuRatios = withRuns.map((run, round) => run.cpuMs / withoutRuns[round].cpuMs);
    const rpsRatios = withRuns.map((run, round) => run.rps / withoutRuns[round].rps);
    console.log(
      `${path.padEnd(32)} req/s with ${mean(withRuns.map((r) => r.rps)).toFixed(0).padStart(6)} without ${mean(withoutRuns.map((r) => r.rps)).toFixed(0).padStart(6)}` +
        ` (median throughput change ${pct(median(rpsRatios))})` +
        `   CPU ms/request with ${mean(withRuns.map((r) => r.cpuMs ?? NaN)).toFixed(3)} without ${mean(withoutRuns.map((r) => r.cpuMs ?? NaN)).toFixed(3)}` +
        ` (median CPU cost ${pct(median(cpuRatios))})`,
    );
  }
  await stop(on.child);
  await stop(off.child);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
