// What the bench scripts share (the harness's and bench/experiments/'s): command-line options, starting and
// stopping the built service, waiting for a port, calling the API, the CPU and memory of a process from /proc,
// one autocannon measurement with the server's CPU per request and its peak RSS, mean and median, an
// experiment's database of its own on the server. A script
// that needs one of these imports it; one that needs none says why in its header. Plain ES module, no build
// step; Linux for /proc figures.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';

export const root = fileURLToPath(new URL('..', import.meta.url));

/** `--name value` or `--name=value` from argv, or the fallback; `--flag` alone reads as true. */
export function options(argv = process.argv.slice(2)) {
  return (name, fallback) => {
    const inline = argv.find((arg) => arg.startsWith(`--${name}=`));
    if (inline !== undefined) return inline.slice(name.length + 3);
    const at = argv.indexOf(`--${name}`);
    if (at === -1) return fallback;
    const value = argv[at + 1];
    return value === undefined || value.startsWith('--') ? true : value;
  };
}

export const ANON_KEY = 'bench-anon-key-0123456789abcdef';
export const SERVICE_ROLE_KEY = 'bench-service-role-key-0123456789abcdef';
export const SUPER_ADMIN = { email: 'bench-super@example.test', password: 'bench super password' };

export async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function waitFor(url, { child, attempts = 1200 } = {}) {
  for (let i = 0; i < attempts; i += 1) {
    if (child && child.exitCode !== null) throw new Error(`${url}: the process exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${url} did not come up`);
}

const children = new Set();
process.on('exit', () => children.forEach((child) => child.kill('SIGTERM')));

/** Starts a node process in the repository root; its stderr is prefixed and shown. */
export function startNode(name, script, env, nodeArgs = [], cwd = root) {
  const child = spawn(process.execPath, [...nodeArgs, script], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr.on('data', (chunk) => process.stderr.write(`[${name}] ${chunk}`));
  child.startedAt = Date.now();
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

export async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/**
 * The service as it is deployed (`node dist/main.js`), on a free loopback port, with the per-user and
 * per-address rate limits raised so that the load is not refused (they are not what the bench measures).
 * `database`: { DATABASE_URL } or { DATA_DIR } (the embedded engine). `cwd`: another checkout's built service
 * (an earlier commit's, measured beside this one).
 */
export async function startService(name, database, { nodeArgs = [], env = {}, cwd = root } = {}) {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = startNode(name, 'dist/main.js', {
    ...database,
    HOST: '127.0.0.1',
    PORT: String(port),
    // One issuer for every service of a run: a token stays valid on the next service on the same database.
    PUBLIC_URL: 'http://bench.example.test',
    AUTH_ANON_KEY: ANON_KEY,
    AUTH_SERVICE_ROLE_KEY: SERVICE_ROLE_KEY,
    BOOTSTRAP_SUPER_ADMIN_EMAIL: SUPER_ADMIN.email,
    BOOTSTRAP_SUPER_ADMIN_PASSWORD: SUPER_ADMIN.password,
    RATE_LIMIT_PER_MINUTE: '1000000',
    RATE_LIMIT_PER_HOUR: '100000000',
    RATE_LIMIT_SIGN_IN_PER_MINUTE: '1000000',
    RATE_LIMIT_SIGN_IN_PER_HOUR: '100000000',
    LOG_LEVEL: process.env.BENCH_SERVICE_LOG_LEVEL ?? 'warn',
    NODE_ENV: 'production',
    ...env,
  }, nodeArgs, cwd);
  await waitFor(`${baseUrl}/health`, { child });
  return { name, baseUrl, child, pid: child.pid };
}

/**
 * The owner's connection URL of an embedded engine's `DATA_DIR` (joined, not started: the service started on it
 * runs the engine). Imports the service's TypeScript: the caller runs under tsx.
 */
export async function ownerUrlOfEmbedded(dir) {
  const { joinEmbeddedServer } = await import('../src/platform/db/embedded/embedded-server.ts');
  const server = await joinEmbeddedServer(dir);
  return { url: server.url({ database: 'risk' }), release: () => server.release() };
}

/** One API call; throws on a status of 300 or more. */
export async function call(baseUrl, method, path, { token, apikey, body } = {}) {
  const headers = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  if (apikey) headers.apikey = apikey;
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 500)}`);
  return text === '' ? null : JSON.parse(text);
}

export const signIn = async (baseUrl, email, password) =>
  (await call(baseUrl, 'POST', '/auth/v1/token?grant_type=password', { apikey: ANON_KEY, body: { email, password } })).access_token;

/** An enterprise and its client admin, through the API (as the super admin); the enterprise id and the admin's token. */
export async function enterpriseWithAdmin(baseUrl, superToken, name) {
  const enterprise = (await call(baseUrl, 'POST', '/api/v1/admin/enterprises', { token: superToken, body: { name, country: 'GB' } })).data;
  const user = (await call(baseUrl, 'POST', `/api/v1/admin/enterprises/${enterprise.id}/users`, {
    token: superToken,
    body: { email: `admin-${enterprise.id.slice(0, 8)}@example.test`, full_name: `${name} admin`, role: 'admin' },
  })).data;
  await call(baseUrl, 'PUT', `/auth/v1/admin/users/${user.user_id}`, { token: SERVICE_ROLE_KEY, apikey: SERVICE_ROLE_KEY, body: { password: 'bench password 1' } });
  return { id: enterprise.id, token: await signIn(baseUrl, user.email, 'bench password 1') };
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux; null elsewhere). */
export function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** Resident memory of a process in MiB (Linux; null elsewhere). */
export function rssMiB(pid) {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
  } catch {
    return null;
  }
}

/** Samples a process's RSS every `everyMs` (20) until stopped; returns the peak seen. */
export function rssSampler(pid, everyMs = 20) {
  let peak = rssMiB(pid) ?? 0;
  const timer = setInterval(() => (peak = Math.max(peak, rssMiB(pid) ?? 0)), everyMs);
  return () => {
    clearInterval(timer);
    return Math.max(peak, rssMiB(pid) ?? 0);
  };
}

export const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/**
 * One autocannon measurement of a server process: req/s, p50/p99 (ms), the process's CPU ms per answered
 * request, its peak RSS. `requests` (autocannon's) lets each request differ (a token per connection, an id
 * per request). A short warm-up first, not counted. Non-2xx answers fail the measurement unless allowed.
 */
export async function measure({ url, pid, connections, duration, warmup = 3, headers = {}, requests, method, body, allowNon2xx = false, amount }) {
  const clients = amount === undefined ? connections : Math.min(connections, amount);
  const base = Object.fromEntries(Object.entries({ url, connections: clients, headers, method, body, requests, timeout: 120 }).filter(([, value]) => value !== undefined));
  if (warmup > 0 && amount === undefined) await autocannon({ ...base, duration: warmup });
  const cpuBefore = cpuSeconds(pid);
  const peakRss = rssSampler(pid);
  const result = await autocannon(amount === undefined ? { ...base, duration } : { ...base, amount });
  const peak = peakRss();
  const cpuAfter = cpuSeconds(pid);
  const answered = result['2xx'] + result.non2xx;
  if (!allowNon2xx && (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0)) {
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  return {
    rps: result.requests.average,
    total: answered,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuMs: cpuBefore === null || cpuAfter === null ? null : ((cpuAfter - cpuBefore) * 1000) / Math.max(answered, 1),
    peakRssMiB: peak,
    non2xx: result.non2xx,
    timeouts: result.timeouts,
  };
}

export const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;
export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
export const fixed = (value, digits = 0) => (value === null || value === undefined || Number.isNaN(value) ? '-' : Number(value).toFixed(digits));

/** Runs `statement` in the server's `postgres` database (what creating or dropping another database needs). */
async function onServer(serverUrl, statement) {
  const admin = new pg.Client({ connectionString: `${serverUrl}/postgres` });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/** Drops an experiment's own database (its connections ended first). */
export const dropDatabase = (serverUrl, name) => onServer(serverUrl, `drop database if exists ${name} with (force)`);

/**
 * An experiment's own database on the server, dropped and created afresh; `migrate` brings it to the current
 * schema with the service's migrator (a script run with tsx: the migrator is TypeScript). Answers its URL.
 */
export async function freshDatabase(serverUrl, name, { migrate = false } = {}) {
  await dropDatabase(serverUrl, name);
  await onServer(serverUrl, `create database ${name}`);
  const url = `${serverUrl}/${name}`;
  if (migrate) {
    const [{ openDatabase }, { migrateToLatest }] = await Promise.all([import('../src/platform/db/engine.ts'), import('../src/platform/db/migrator.ts')]);
    const database = await openDatabase({ kind: 'postgres', url }, { poolSize: 2 });
    await migrateToLatest(database);
    await database.close();
  }
  return url;
}
