// What the platform costs per request: the service against a bare node:http + pg handler (bench/experiments/bare-handler.mjs)
// that runs the same SQL and writes the same JSON, both on one PostgreSQL database, measured in one run with
// autocannon (32 connections), endpoint by endpoint, alternating which server goes first each round.
//
//   node bench/experiments/gate-ratio.mjs [--duration 10] [--rounds 2] [--warmup 5] [--connections 32] [--no-build]
//                             [--database-url postgres://postgres@127.0.0.1:5432] [--service-node-options "--cpu-prof"]
//
// The database `bench_gate` is dropped and created afresh, migrated and seeded through the service's own API
// (30 enterprises; a client admin, an assessor with three entity assignments). The service runs as it is
// deployed (`node dist/main.js`, LOG_LEVEL info, logs to /dev/null) with rate limits raised so that the
// run is not refused; everything else (token check, rate limiting, principal, validation, serialization,
// logging) is on. Before measuring, the script checks that both servers answer byte-identical JSON.
import { spawnSync } from 'node:child_process';
import { call, freePort, freshDatabase, mean, measure, options, root, SERVICE_ROLE_KEY, signIn, startNode, startService, stop, SUPER_ADMIN, waitFor } from '../support.mjs';

const option = options();
const DURATION = Number(option('duration', '10'));
const ROUNDS = Number(option('rounds', '2'));
const WARMUP = Number(option('warmup', '5'));
const CONNECTIONS = Number(option('connections', '32'));
const SERVER_URL = option('database-url', 'postgres://postgres@127.0.0.1:5432');
const DATABASE = 'bench_gate';
const DATABASE_URL = `${SERVER_URL}/${DATABASE}`;

async function addUser(service, superToken, enterpriseId, role, n) {
  const user = (await call(service, 'POST', `/api/v1/admin/enterprises/${enterpriseId}/users`, {
    token: superToken,
    body: { email: `bench-${role}-${n}-${enterpriseId.slice(0, 8)}@example.test`, full_name: `Bench ${role} ${n}`, role },
  })).data;
  const password = `bench password ${n}`;
  await call(service, 'PUT', `/auth/v1/admin/users/${user.user_id}`, { token: SERVICE_ROLE_KEY, apikey: SERVICE_ROLE_KEY, body: { password } });
  return { id: user.user_id, email: user.email, password };
}

/** Through the service's API, as its users would: the same rows whichever server reads them. */
async function seed(service) {
  const superToken = await signIn(service, SUPER_ADMIN.email, SUPER_ADMIN.password);
  const enterprises = [];
  for (let i = 0; i < 30; i += 1) {
    const body = { name: `Bench Enterprise ${String(i).padStart(2, '0')}`, country: 'GB', registration_number: `BE${1000 + i}` };
    enterprises.push((await call(service, 'POST', '/api/v1/admin/enterprises', { token: superToken, body })).data);
  }
  for (const [i, enterprise] of enterprises.entries()) {
    if (i % 3 === 0) await call(service, 'PATCH', `/api/v1/admin/enterprises/${enterprise.id}`, { token: superToken, body: { subscription_tier: 'professional' } });
    if (i % 7 === 0) await call(service, 'PATCH', `/api/v1/admin/enterprises/${enterprise.id}`, { token: superToken, body: { status: 'inactive' } });
  }
  const home = enterprises[enterprises.length - 1];
  const clientAdmin = await addUser(service, superToken, home.id, 'admin', 1);
  const adminToken = await signIn(service, clientAdmin.email, clientAdmin.password);
  const assessor = await addUser(service, adminToken, home.id, 'assessor', 2);
  for (let e = 0; e < 3; e += 1) {
    const entity = (await call(service, 'POST', '/api/v1/admin/legal-entities', { token: adminToken, body: { name: `Bench Entity ${e}` } })).data;
    const unit = (await call(service, 'POST', `/api/v1/admin/legal-entities/${entity.id}/business-units`, { token: adminToken, body: { name: `Unit ${e}` } })).data;
    const body = e === 0 ? { legal_entity_id: entity.id } : { legal_entity_id: entity.id, business_unit_id: unit.id };
    await call(service, 'POST', `/api/v1/admin/users/${assessor.id}/entity-roles`, { token: adminToken, body });
  }
  const meToken = await signIn(service, assessor.email, assessor.password);
  const claims = JSON.parse(Buffer.from(meToken.split('.')[1], 'base64url').toString());
  return { superToken, meToken, meUserId: assessor.id, meSessionId: claims.session_id };
}

async function body(url, headers) {
  const response = await fetch(url, { headers });
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return response.text();
}

async function main() {
  if (!option('no-build', false)) {
    const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
  await freshDatabase(SERVER_URL, DATABASE);

  const nodeOptions = String(option('service-node-options', ''));
  // As deployed, LOG_LEVEL info (the logging is part of what the platform costs), its stdout to /dev/null.
  const service = await startService('service', { DATABASE_URL }, {
    nodeArgs: nodeOptions.split(' ').filter(Boolean),
    env: { LOG_LEVEL: process.env.BENCH_SERVICE_LOG_LEVEL ?? 'info' },
  });
  const SERVICE = service.baseUrl;
  const seeded = await seed(SERVICE);
  const barePort = await freePort();
  const BARE = `http://127.0.0.1:${barePort}`;
  const bare = startNode('bare', 'bench/experiments/bare-handler.mjs', {
    DATABASE_URL,
    PORT: String(barePort),
    BENCH_ME_USER_ID: seeded.meUserId,
    BENCH_ME_SESSION_ID: seeded.meSessionId,
  });
  await waitFor(`${BARE}/health`, { child: bare });

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
        const windowStart = (Date.now() - service.child.startedAt) / 1000;
        // After a warm-up (JIT, pools, caches) that is not counted; the server's own CPU per answered request
        // is steadier than req/s on a shared machine.
        const result = await measure({ url, pid, connections: CONNECTIONS, duration: DURATION, warmup: WARMUP, headers: target === 'service' ? headers : {} });
        // For reading a --cpu-prof profile of the service: the load window, in seconds since it started.
        if (target === 'service' && nodeOptions !== '') console.log(`  service load window: ${windowStart.toFixed(1)}-${((Date.now() - service.child.startedAt) / 1000).toFixed(1)} s`);
        runs.get(path)[target].push(result);
        const cpu = result.cpuMs === null ? '' : `, ${result.cpuMs.toFixed(3)} CPU ms/request`;
        console.log(`round ${round + 1} ${path} ${target}: ${result.rps.toFixed(0)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms${cpu}`);
      }
    }
  }

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
  await stop(service.child);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
