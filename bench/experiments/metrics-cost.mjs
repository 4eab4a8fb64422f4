// What the Prometheus metrics cost on the request path: the same build run twice on one PostgreSQL database,
// once with metrics on (METRICS_PORT: the request hooks, the pool and query observers, a scrape every 15 s
// as Prometheus would) and once without (no METRICS_* variable: nothing collected), measured side by side in
// one run with autocannon, endpoint by endpoint, alternating which server goes first each round. Reported:
// req/s and the server's CPU ms per request (steadier than req/s on a shared machine), and their ratios.
//
//   node bench/experiments/metrics-cost.mjs [--duration 8] [--rounds 4] [--warmup 3] [--connections 32] [--no-build]
//                               [--database-url postgres://postgres@127.0.0.1:5432]
//
// The database `bench_metrics` is dropped and created afresh, migrated and seeded through the service's API.
// Every server listens on a free port the system picks.
import { spawnSync } from 'node:child_process';
import autocannon from 'autocannon';
import { call, cpuSeconds, enterpriseWithAdmin, freePort, freshDatabase, mean, median, options, root, signIn, startService, stop, SUPER_ADMIN } from '../support.mjs';

const option = options();
const DURATION = Number(option('duration', '8'));
const ROUNDS = Number(option('rounds', '4'));
const WARMUP = Number(option('warmup', '3'));
const CONNECTIONS = Number(option('connections', '32'));
const SERVER_URL = option('database-url', 'postgres://postgres@127.0.0.1:5432');
const DATABASE = 'bench_metrics';
const DATABASE_URL = `${SERVER_URL}/${DATABASE}`;

/** 30 enterprises, the last with a client admin (support.mjs's enterpriseWithAdmin): the tokens of the super admin and of that admin. */
async function seed(base) {
  const superToken = await signIn(base, SUPER_ADMIN.email, SUPER_ADMIN.password);
  for (let i = 0; i < 29; i += 1) {
    await call(base, 'POST', '/api/v1/admin/enterprises', { token: superToken, body: { name: `Bench Enterprise ${i}`, country: 'GB' } });
  }
  const home = await enterpriseWithAdmin(base, superToken, 'Bench Enterprise 29');
  return { superToken, adminToken: home.token };
}

/**
 * Not support.mjs's measure: the server with metrics is scraped during its window (every 15 s, as Prometheus
 * would, and once just before), and that must not fall in the warm-up.
 */
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
  if (!option('no-build', false)) {
    const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
  await freshDatabase(SERVER_URL, DATABASE);

  // LOG_LEVEL info, as deployed; PUBLIC_URL is one issuer for all three (support.mjs), so the seeded tokens work on both.
  const env = { LOG_LEVEL: 'info' };
  // Seeded through a server of its own, stopped before measuring: both measured servers start fresh, alike
  // but for the metrics (the one that seeded would carry a warmer heap and JIT into the comparison).
  const seeder = await startService('seed', { DATABASE_URL }, { env });
  const seeded = await seed(seeder.baseUrl);
  await stop(seeder.child);
  const metricsPort = await freePort();
  const [offService, onService] = [
    await startService('without', { DATABASE_URL }, { env }),
    await startService('with', { DATABASE_URL }, { env: { ...env, METRICS_PORT: String(metricsPort) } }),
  ];
  const off = { name: 'without metrics', base: offService.baseUrl, scrape: null, child: offService.child };
  const on = { name: 'with metrics', base: onService.baseUrl, scrape: `http://127.0.0.1:${metricsPort}/metrics`, child: onService.child };
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
