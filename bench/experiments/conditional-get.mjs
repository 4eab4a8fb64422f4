// What a conditional read costs: GET /api/v1/bras/{id} with If-None-Match naming its current ETag (304, no
// body) against the same GET without it (200 with the body and its ETag), measured side by side in one
// run with autocannon, alternating which goes first each round, with the service's own CPU per request.
// Also the share of a plain GET spent computing its ETag (the digest of its representation), timed in this
// process over the very answer the service gave.
//
//   node bench/experiments/conditional-get.mjs [--duration 10] [--rounds 2] [--warmup 3] [--connections 16] [--scenarios 20] [--no-build]
//
// The service runs as deployed (`node dist/main.js`, LOG_LEVEL info to /dev/null) on the embedded
// PostgreSQL under a fresh temporary DATA_DIR, on a free port, with rate limits raised. The BRA is seeded
// through the API: --scenarios scenario links, each rated both ways, and three linked sub-controls.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { call as callOf, cpuSeconds, enterpriseWithAdmin, mean, options, root, signIn, startService, stop, SUPER_ADMIN } from '../support.mjs';

const option = options();
const DURATION = Number(option('duration', '10'));
const ROUNDS = Number(option('rounds', '2'));
const WARMUP = Number(option('warmup', '3'));
const CONNECTIONS = Number(option('connections', '16'));
const SCENARIOS = Number(option('scenarios', '20'));

async function main() {
  if (!option('no-build', false)) {
    const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-conditional-'));
  // Run as root, the embedded server runs as "postgres", which must be able to enter DATA_DIR.
  chmodSync(dataDir, 0o711);
  let service = null;
  try {
    service = await startService('service', { DATA_DIR: dataDir }, { env: { LOG_LEVEL: 'info' } });
    const base = service.baseUrl;
    const call = (method, path, request) => callOf(base, method, path, request);
    const superToken = await signIn(base, SUPER_ADMIN.email, SUPER_ADMIN.password);
    const { token } = await enterpriseWithAdmin(base, superToken, 'Bench Conditional');
    const entity = (await call('POST', '/api/v1/admin/legal-entities', { token, body: { name: 'Bench Entity' } })).data;
    const bra = (await call('POST', '/api/v1/bras', { token, body: { name: 'Bench BRA', legal_entity_id: entity.id, period: 'FY2026', assessor: 'Bench' } })).data;
    const catalogue = (await call('GET', '/api/v1/risk-scenarios?page_size=100', { token })).data;
    for (let i = 0; i < SCENARIOS; i += 1) {
      const scenarioId = i < catalogue.length
        ? catalogue[i].id
        : (await call('POST', '/api/v1/risk-scenarios', { token, body: { name: `Bench scenario ${i}`, category: 'Bench' } })).data.id;
      const link = (await call('POST', `/api/v1/bras/${bra.id}/scenarios`, { token, body: { risk_scenario_id: scenarioId } })).data;
      for (const rating_type of ['inherent', 'residual']) {
        await call('POST', `/api/v1/bras/${bra.id}/ratings`, {
          token,
          body: { bra_risk_scenario_id: link.id, rating_type, impact_score: 1 + (i % 5), likelihood_score: 1 + ((i * 3) % 5) },
        });
      }
    }
    const keyControl = (await call('POST', '/api/v1/controls/key-controls', { token, body: { name: 'Bench key control' } })).data;
    for (let i = 0; i < 3; i += 1) {
      const sub = (await call('POST', '/api/v1/controls/sub-controls', { token, body: { key_control_id: keyControl.id, name: `Bench sub-control ${i}`, tod: 'B', toe: '2' } })).data;
      await call('POST', `/api/v1/bras/${bra.id}/controls`, { token, body: { sub_control_id: sub.id } });
    }

    const url = `${base}/api/v1/bras/${bra.id}`;
    const plain = { authorization: `Bearer ${token}` };
    const first = await fetch(url, { headers: plain });
    const etag = first.headers.get('etag');
    const servedBody = await first.text();
    const conditional = { ...plain, 'if-none-match': etag };
    const check = await fetch(url, { headers: conditional });
    if (first.status !== 200 || etag === null || check.status !== 304) throw new Error(`expected 200 with an ETag, then 304: ${first.status} ${etag} ${check.status}`);
    console.log(`GET /api/v1/bras/{id}: ${Buffer.byteLength(servedBody)} bytes, ETag ${etag}; with If-None-Match: 304`);

    // Not support.mjs's measure: the conditional GET's 304s are the answers expected, and only they may come.
    const measure = async (headers, expected) => {
      await autocannon({ url, connections: CONNECTIONS, duration: WARMUP, headers });
      const before = cpuSeconds(service.pid);
      const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
      const after = cpuSeconds(service.pid);
      const answered = expected === 304 ? result['3xx'] : result['2xx'];
      if (answered !== result.requests.total || result.errors > 0 || result.timeouts > 0) {
        throw new Error(`expected only ${expected}: ${JSON.stringify({ total: result.requests.total, '2xx': result['2xx'], '3xx': result['3xx'], errors: result.errors })}`);
      }
      const cpuMs = before === null || after === null ? null : ((after - before) * 1000) / result.requests.total;
      return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, cpuMs, bytes: result.throughput.total / result.requests.total };
    };
    const runs = { plain: [], conditional: [] };
    for (let round = 0; round < ROUNDS; round += 1) {
      const order = round % 2 === 0 ? ['plain', 'conditional'] : ['conditional', 'plain'];
      for (const kind of order) {
        const result = await measure(kind === 'plain' ? plain : conditional, kind === 'plain' ? 200 : 304);
        runs[kind].push(result);
        const cpu = result.cpuMs === null ? '' : `, ${result.cpuMs.toFixed(3)} CPU ms/request`;
        console.log(`round ${round + 1} ${kind.padEnd(11)}: ${result.rps.toFixed(0)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms${cpu}, ${result.bytes.toFixed(0)} bytes/answer`);
      }
    }

    // The ETag's own cost on a plain GET: a BRA's tag is its state, the digest of its representation (the
    // answer without the caller's abilities), computed as the service computes it.
    const { representationState } = await import(new URL('../../dist/platform/versions/resource-state.js', import.meta.url).href).catch(() => ({}));
    let etagMs = null;
    if (typeof representationState === 'function') {
      const { abilities: _abilities, ...representation } = JSON.parse(servedBody).data;
      for (let i = 0; i < 2000; i += 1) representationState(1, representation);
      const n = 20000;
      const started = performance.now();
      for (let i = 0; i < n; i += 1) representationState(1, representation);
      etagMs = (performance.now() - started) / n;
    }

    const p = { rps: mean(runs.plain.map((r) => r.rps)), cpu: runs.plain.every((r) => r.cpuMs !== null) ? mean(runs.plain.map((r) => r.cpuMs)) : null };
    const c = { rps: mean(runs.conditional.map((r) => r.rps)), cpu: runs.conditional.every((r) => r.cpuMs !== null) ? mean(runs.conditional.map((r) => r.cpuMs)) : null };
    console.log(`\nautocannon, ${CONNECTIONS} connections, ${DURATION} s x ${ROUNDS} rounds each, node ${process.version}`);
    console.log(`GET without If-None-Match (200): ${p.rps.toFixed(0)} req/s${p.cpu === null ? '' : `, ${p.cpu.toFixed(3)} CPU ms/request`}`);
    console.log(`GET with If-None-Match (304):    ${c.rps.toFixed(0)} req/s${c.cpu === null ? '' : `, ${c.cpu.toFixed(3)} CPU ms/request`}`);
    console.log(`ratio conditional/plain: req/s ${(c.rps / p.rps).toFixed(2)}${p.cpu === null ? '' : `, CPU per request ${(c.cpu / p.cpu).toFixed(2)}`}`);
    if (etagMs !== null && p.cpu !== null) {
      console.log(`computing the ETag of this body: ${(etagMs * 1000).toFixed(1)} µs, ${((etagMs / p.cpu) * 100).toFixed(2)} % of a plain GET's CPU`);
    }
  } finally {
    if (service !== null) await stop(service.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
