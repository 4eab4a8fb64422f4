// What the platform costs per request: the service against a bare node:http + pg handler (bench/bare-handler.mjs)
// that runs the same SQL and writes the same JSON, both on one PostgreSQL database, measured in one run with
// autocannon (32 connections), endpoint by endpoint, alternating which server goes first each round.
//
//   node bench/gate-ratio.mjs [--duration 10] [--rounds 2] [--warmup 5] [--connections 32] [--no-build]
//                             [--database-url postgres://postgres@127.0.0.1:5432] [--service-node-options "--cpu-prof"]
//
// The database `bench_gate` is dropped and created afresh, migrated and seeded through the service's own API
// (30 enterprises; a client admin, an assessor with three entity assignments). The service runs as it is
// deployed (`node dist/main.js`, LOG_LEVEL info, logs to /dev/null) with rate limits raised so that the
// run is not refused; everything else (token check, rate limiting, principal, validation, serialization,
// logging) is on. Before measuring, the script checks that both servers answer byte-identical JSON.
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { cpuSeconds, stop, waitFor } from './support.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at === -1 ? fallback : args[at + 1];
};
const DURATION = Number(option('duration', '10'));
const ROUNDS = Number(option('rounds', '2'));
const WARMUP = Number(option('warmup', '5'));
const CONNECTIONS = Number(option('connections', '32'));
const SERVER_URL = option('database-url', 'postgres://postgres@127.0.0.1:5432');
const DATABASE = 'bench_gate';
const DATABASE_URL = `${SERVER_URL}/${DATABASE}`;
const SERVICE_PORT = 3100;
const BARE_PORT = 3101;
const SERVICE = `http://127.0.0.1:${SERVICE_PORT}`;
const BARE = `http://127.0.0.1:${BARE_PORT}`;
const ANON_KEY = 'bench-anon-key-0123456789abcdef';
const SERVICE_ROLE_KEY = 'bench-service-role-key-0123456789abcdef';
const ADMIN = { email: 'bench-super@example.test', password: 'bench super password' };

const children = [];
process.on('exit', () => children.forEach((child) => child.kill('SIGTERM')));

function start(name, command, commandArgs, env) {
  const startedAt = Date.now();
  const child = spawn(command, commandArgs, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr.on('data', (chunk) => process.stderr.write(`[${name}] ${chunk}`));
  children.push(child);
  child.startedAt = startedAt;
  return child;
}

async function call(method, path, { token, apikey, body } = {}) {
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (apikey) headers.apikey = apikey;
  const response = await fetch(`${SERVICE}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text === '' ? null : JSON.parse(text);
}

const signIn = async (email, password) =>
  (await call('POST', '/auth/v1/token?grant_type=password', { apikey: ANON_KEY, body: { email, password } })).access_token;

async function addUser(superToken, enterpriseId, role, n) {
  const user = (await call('POST', `/api/v1/admin/enterprises/${enterpriseId}/users`, {
    token: superToken,
    body: { email: `bench-${role}-${n}-${enterpriseId.slice(0, 8)}@example.test`, full_name: `Bench ${role} ${n}`, role },
  })).data;
  const password = `bench password ${n}`;
  await call('PUT', `/auth/v1/admin/users/${user.user_id}`, { token: SERVICE_ROLE_KEY, apikey: SERVICE_ROLE_KEY, body: { password } });
  return { id: user.user_id, email: user.email, password };
}

/** Through the service's API, as its users would: the same rows whichever server reads them. */
async function seed() {
  const superToken = await signIn(ADMIN.email, ADMIN.password);
  const enterprises = [];
  for (let i = 0; i < 30; i += 1) {
    const body = { name: `Bench Enterprise ${String(i).padStart(2, '0')}`, country: 'GB', registration_number: `BE${1000 + i}` };
    enterprises.push((await call('POST', '/api/v1/admin/enterprises', { token: superToken, body })).data);
  }
  for (const [i, enterprise] of enterprises.entries()) {
    if (i % 3 === 0) await call('PATCH', `/api/v1/admin/enterprises/${enterprise.id}`, { token: superToken, body: { subscription_tier: 'professional' } });
    if (i % 7 === 0) await call('PATCH', `/api/v1/admin/enterprises/${enterprise.id}`, { token: superToken, body: { status: 'inactive' } });
  }
  const home = enterprises[enterprises.length - 1];
  const clientAdmin = await addUser(superToken, home.id, 'admin', 1);
  const adminToken = await signIn(clientAdmin.email, clientAdmin.password);
  const assessor = await addUser(adminToken, home.id, 'assessor', 2);
  for (let e = 0; e < 3; e += 1) {
    const entity = (await call('POST', '/api/v1/admin/legal-entities', { token: adminToken, body: { name: `Bench Entity ${e}` } })).data;
    const unit = (await call('POST', `/api/v1/admin/legal-entities/${entity.id}/business-units`, { token: adminToken, body: { name: `Unit ${e}` } })).data;
    const body = e === 0 ? { legal_entity_id: entity.id } : { legal_entity_id: entity.id, business_unit_id: unit.id };
    await call('POST', `/api/v1/admin/users/${assessor.id}/entity-roles`, { token: adminToken, body });
  }
  const meToken = await signIn(assessor.email, assessor.password);
  const claims = JSON.parse(Buffer.from(meToken.split('.')[1], 'base64url').toString());
  return { superToken, meToken, meUserId: assessor.id, meSessionId: claims.session_id };
}

async function body(url, headers) {
  const response = await fetch(url, { headers });
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return response.text();
}

async function measure(url, headers, pid) {
  // A short warm-up (JIT, pools, caches), not counted.
  await autocannon({ url, connections: CONNECTIONS, duration: WARMUP, headers });
  const cpuBefore = cpuSeconds(pid);
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  const cpuAfter = cpuSeconds(pid);
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  // The server's own CPU per answered request: steadier than req/s on a shared machine.
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

  const nodeOptions = option('service-node-options', '');
  const service = start('service', process.execPath, [...nodeOptions.split(' ').filter(Boolean), 'dist/main.js'], {
    DATABASE_URL,
    HOST: '127.0.0.1',
    PORT: String(SERVICE_PORT),
    AUTH_ANON_KEY: ANON_KEY,
    AUTH_SERVICE_ROLE_KEY: SERVICE_ROLE_KEY,
    BOOTSTRAP_SUPER_ADMIN_EMAIL: ADMIN.email,
    BOOTSTRAP_SUPER_ADMIN_PASSWORD: ADMIN.password,
    RATE_LIMIT_PER_MINUTE: '1000000',
    RATE_LIMIT_PER_HOUR: '100000000',
    LOG_LEVEL: process.env.BENCH_SERVICE_LOG_LEVEL ?? 'info',
    NODE_ENV: 'production',
  });
  await waitFor(`${SERVICE}/health`);
  const seeded = await seed();
  const bare = start('bare', process.execPath, ['bench/bare-handler.mjs'], {
    DATABASE_URL,
    PORT: String(BARE_PORT),
    BENCH_ME_USER_ID: seeded.meUserId,
    BENCH_ME_SESSION_ID: seeded.meSessionId,
  });
  await waitFor(`${BARE}/health`);

  const endpoints = [
    { path: '/api/v1/me', headers: { authorization: `Bearer ${seeded.meToken}` } },
    { path: '/api/v1/admin/enterprises', headers: { authorization: `Bearer ${seeded.superToken}` } },
  ];
  for (const { path, headers } of endpoints) {
    const [fromService, fromBare] = [await body(`${SERVICE}${path}`, headers), await body(`${BARE}${path}`, {})];
    if (fromService !== fromBare) {
      throw new Error(`${path}: the two servers answer different JSON\nservice: ${fromService}\nbare:    ${fromBare}`);
    }
    console.log(`${path}: identical JSON from both (${Buffer.byteLength(fromService)} bytes)`);
  }

  const runs = new Map(endpoints.map(({ path }) => [path, { service: [], bare: [] }]));
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const { path, headers } of endpoints) {
      const order = round % 2 === 0 ? ['bare', 'service'] : ['service', 'bare'];
      for (const target of order) {
        const [url, pid] = target === 'service' ? [`${SERVICE}${path}`, service.pid] : [`${BARE}${path}`, bare.pid];
        const windowStart = (Date.now() - service.startedAt) / 1000;
        const result = await measure(url, target === 'service' ? headers : {}, pid);
        // For reading a --cpu-prof profile of the service: the load window, in seconds since it started.
        if (target === 'service' && nodeOptions !== '') console.log(`  service load window: ${windowStart.toFixed(1)}-${((Date.now() - service.startedAt) / 1000).toFixed(1)} s`);
        runs.get(path)[target].push(result);
        const cpu = result.cpuMs === null ? '' : `, ${result.cpuMs.toFixed(3)} CPU ms/request`;
        console.log(`round ${round + 1} ${path} ${target}: ${result.rps.toFixed(0)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms${cpu}`);
      }
    }
  }

  const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;
  console.log(`\nautocannon, ${CONNECTIONS} connections, ${DURATION} s x ${ROUNDS} rounds per server and endpoint, node ${process.version}`);
  for (const [path, { service: s, bare: b }] of runs) {
    const serviceRps = mean(s.map((r) => r.rps));
    const bareRps = mean(b.map((r) => r.rps));
    const cpu = s.every((r) => r.cpuMs !== null) && b.every((r) => r.cpuMs !== null)
      ? `   CPU ms/request service ${mean(s.map((r) => r.cpuMs)).toFixed(3)} bare ${mean(b.map((r) => r.cpuMs)).toFixed(3)} (bare/service ${(mean(b.map((r) => r.cpuMs)) / mean(s.map((r) => r.cpuMs))).toFixed(2)})`
      : '';
    console.log(
      `${path.padEnd(28)} service ${serviceRps.toFixed(0).padStart(6)} req/s   bare ${bareRps.toFixed(0).padStart(6)} req/s   ratio ${(serviceRps / bareRps).toFixed(2)}${cpu}`,
    );
  }
  await stop(bare);
  await stop(service);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
