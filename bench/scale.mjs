// Every scenario of the benchmark at a realistic data size (bench/data.mjs), against the database's and the
// runtime's limits, on a PostgreSQL server and on the embedded engine, measured side by side in one run.
//
//   npm run bench -- [--scale medium] [--database-url postgres://postgres@127.0.0.1:5432/bench_medium]
//                    [--embedded /var/tmp/bench-embedded-medium] [--duration 10] [--connections 32]
//                    [--only register,dashboard] [--no-limits] [--export-rows 1000000 | --no-export] [--out results.json]
//                    [--pg-log /var/log/postgresql/postgresql-15-main.log] [--service-node-options="--cpu-prof"]
//   npm run bench -- --mix [--users 750] [--interval 5] [--duration 60] …   (the mixed workload: bench/mix.mjs)
//
// The data must be there (npm run bench:data -- --scale <scale> [--embedded <dir>]). The service runs as it is
// deployed (`node dist/main.js`, NODE_ENV production, LOG_LEVEL warn), per-user and per-address rate limits
// raised. The load (autocannon, over loopback) is spread over the real tokens of many users of the biggest
// tenant (one sign-in each, with the generated password): the per-user rate limit is not what is measured.
// Per scenario: req/s, p50/p99, the service's CPU ms per request and peak RSS; its runtime limit
// (bench/replay-handler.mjs) and database limit (pgbench -f) from the statements captured for the same request
// (bench/limits.mjs); the embedded engine's req/s and its ratio to the server's. Then the audit export.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { BENCH_PASSWORD, SCALES } from './data.mjs';
import { DEFAULT_PG_LOG, capture, logStatements, pgbench, pgbenchScript } from './limits.mjs';
import {
  ANON_KEY, cpuSeconds, fixed, freePort, loadAverage, measure, options, ownerUrlOfEmbedded, rssSampler, signIn, startNode, startService, stop, waitFor,
} from './support.mjs';

const option = options();
const SCALE = option('scale', 'medium');
const DATABASE_URL = option('database-url', process.env.DATABASE_URL ?? `postgres://postgres@127.0.0.1:5432/bench_${SCALE}`);
const EMBEDDED_DIR = option('embedded', null);
const DURATION = Number(option('duration', '10'));
const WARMUP = Number(option('warmup', '3'));
const CONNECTIONS = Number(option('connections', '32'));
const ONLY = option('only', null);
const LIMITS = !option('no-limits', false);
const EXPORT_ROWS = Number(option('export-rows', '1000000'));
const NO_EXPORT = option('no-export', false) !== false;
const PG_LOG = option('pg-log', DEFAULT_PG_LOG);
const OUT = option('out', null);
const NODE_OPTIONS = String(option('service-node-options', '')).split(' ').filter(Boolean);
const USERS = SCALES[SCALE]?.bigUsers ?? 16;
/** Captures of each write, over different records. */
const VARIANTS = 8;
const DATABASE = new URL(DATABASE_URL).pathname.slice(1);
const ADMIN_URL = Object.assign(new URL(DATABASE_URL), { pathname: '/postgres' }).toString();
const work = mkdtempSync(join(tmpdir(), 'bench-scale-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
const log = (...parts) => console.log(...parts);

// ---- a leg: one service on one engine, with its tokens and the ids its scenarios use -------------------------

const signedIn = new Map();

async function prepareLeg(name, service, sqlUrl) {
  const db = new pg.Client({ connectionString: sqlUrl });
  await db.connect();
  const one = async (text, params = []) => (await db.query(text, params)).rows;
  const [tenant] = await one(`select id from enterprises where name = 'Bench Enterprise 00001'`);
  if (tenant === undefined) throw new Error(`${name}: no bench data (npm run bench:data -- --scale ${SCALE})`);
  const admins = await one(`select u.email from users u join enterprise_members m on m.user_id = u.id
    where m.enterprise_id = $1 and m.role = 'admin' order by u.email limit $2`, [tenant.id, USERS]);
  const approved = await one(`select id from bras where enterprise_id = $1 and status = 'approved' order by name limit 50`, [tenant.id]);
  const [{ n: approvedCount }] = await one(`select count(*)::int as n from bras where enterprise_id = $1 and status = 'approved'`, [tenant.id]);
  const links = await one(`select l.bra_id, l.id from bras b join bra_risk_scenarios l on l.enterprise_id = b.enterprise_id and l.bra_id = b.id
    where b.enterprise_id = $1 and b.status = 'in_progress' and l.included order by b.name, l.id limit 500`, [tenant.id]);
  const underReview = await one(`select id from bras where enterprise_id = $1 and status = 'under_review' order by name`, [tenant.id]);
  // The export's rows: the newest EXPORT_ROWS entries of the tenant, as a date range (whole UTC days).
  const [{ n: auditCount }] = await one('select count(*)::int as n from audit_log where enterprise_id = $1', [tenant.id]);
  const [since] = await one(`select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day from audit_log where enterprise_id = $1
    order by chain_seq desc offset $2 limit 1`, [tenant.id, Math.max(0, Math.min(EXPORT_ROWS, auditCount) - 1)]);
  const exportFrom = since?.day ?? '2000-01-01';
  const [{ n: exportRows }] = await one(`select count(*)::int as n from audit_log where enterprise_id = $1 and created_at >= $2::date`, [tenant.id, exportFrom]);
  await db.end();
  const started = Date.now();
  // Tokens outlive the service that issued them (the signing keys are in the database): one sign-in per user.
  const tokens = signedIn.get(sqlUrl) ?? [];
  for (const { email } of admins.slice(tokens.length)) tokens.push(await signIn(service.baseUrl, email, BENCH_PASSWORD));
  signedIn.set(sqlUrl, tokens);
  log(`${name}: ${tokens.length} client admins of the biggest tenant signed in (${((Date.now() - started) / 1000).toFixed(1)} s); ` +
    `${approvedCount} approved BRAs, ${underReview.length} under review, ${auditCount.toLocaleString('en')} audit entries`);
  return { name, service, sqlUrl, tenant: tenant.id, admins, tokens, approved, approvedCount, links, underReview, exportFrom, exportRows };
}

// ---- the scenarios ----------------------------------------------------------------------------------------

const json = (value) => JSON.stringify(value);

/** Each scenario: how to make its n-th request on a leg (method, path, body, token). */
function scenarios() {
  const get = (key, label, path) => ({ key, label, kind: 'read', request: (leg, n) => ({ method: 'GET', path: typeof path === 'function' ? path(leg, n) : path }) });
  return [
    get('bra-list', 'BRA list, page 1', '/api/v1/bras'),
    get('bra-list-deep', 'BRA list, approved, deep page', (leg) => `/api/v1/bras?status=approved&page=${Math.max(1, Math.floor(leg.approvedCount / 25 / 2))}`),
    get('bra-detail', 'BRA detail', (leg, n) => `/api/v1/bras/${leg.approved[n % leg.approved.length].id}`),
    get('heat-map', 'Control heat map', '/api/v1/controls/heat-map'),
    get('effectiveness', 'Control effectiveness', '/api/v1/controls/effectiveness'),
    get('actions-overdue', 'Actions, overdue_only', '/api/v1/mitigation-actions?overdue_only=true'),
    get('audit-p1', 'Audit search, page 1', '/api/v1/audit'),
    get('audit-p1000', 'Audit search, page 1,000', '/api/v1/audit?page=1000'),
    get('me', '/me (client admin)', '/api/v1/me'),
    get('register', 'Risk register, page 1', '/api/v1/risk-register'),
    get('dashboard', 'Dashboard', '/api/v1/dashboard'),
    {
      key: 'rating-write', label: 'Rating write', kind: 'write',
      request: (leg, n) => {
        const link = leg.links[n % leg.links.length];
        return { method: 'POST', path: `/api/v1/bras/${link.bra_id}/ratings`,
          body: json({ bra_risk_scenario_id: link.id, rating_type: 'residual', impact_score: 1 + (n % 5), likelihood_score: 1 + (n % 4) }) };
      },
    },
    {
      key: 'approval', label: 'Approval', kind: 'write',
      // Each approval uses up a BRA under review: a fixed number of requests, the first ones kept for the capture.
      amount: (leg) => Math.max(0, Math.min(400, leg.underReview.length - VARIANTS - 2)),
      request: (leg, n) => ({ method: 'POST', path: `/api/v1/bras/${leg.underReview[n % leg.underReview.length].id}/approve`, body: json({ final_comment: 'Approved at the bench' }) }),
    },
    {
      key: 'sign-in', label: 'Sign-in (password)', kind: 'sign-in', amount: () => 3 * CONNECTIONS,
      request: (leg, n) => ({ method: 'POST', path: '/auth/v1/token?grant_type=password', apikey: true,
        body: json({ email: leg.admins[n % leg.admins.length].email, password: BENCH_PASSWORD }) }),
    },
  ].filter((scenario) => ONLY === null || String(ONLY).split(',').includes(scenario.key));
}

/** autocannon request options: the n-th request of the scenario, each with the next user's token. */
function requestsOf(scenario, leg, offset = 0) {
  let n = offset;
  return [{
    setupRequest: (request) => {
      const made = scenario.request(leg, n);
      const token = leg.tokens[n % leg.tokens.length];
      n += 1;
      const headers = { ...request.headers, ...(made.apikey ? { apikey: ANON_KEY } : { authorization: `Bearer ${token}` }) };
      if (made.body !== undefined) headers['content-type'] = 'application/json';
      return { ...request, method: made.method, path: made.path, headers, body: made.body };
    },
  }];
}

async function loadService(scenario, leg, offset) {
  const amount = scenario.amount?.(leg);
  if (amount === 0) return null;
  return measure({
    url: leg.service.baseUrl, pid: leg.service.pid, connections: CONNECTIONS, duration: DURATION,
    warmup: scenario.kind === 'read' ? WARMUP : 0, requests: requestsOf(scenario, leg, offset), amount,
    // A request the service refuses under the load (a 503 when a query waits too long for a pooled
    // connection: see bench/README.md) is counted and shown, not fatal.
    allowNon2xx: true,
  });
}

/** One request as a client sends it, for the capture: returns status and body text. */
async function send(leg, made) {
  const headers = made.apikey ? { apikey: ANON_KEY } : { authorization: `Bearer ${leg.tokens[0]}` };
  if (made.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${leg.service.baseUrl}${made.path}`, { method: made.method, headers, body: made.body });
  return { status: response.status, body: await response.text() };
}

// ---- the export -------------------------------------------------------------------------------------------

async function exportOnce(leg) {
  const path = `/api/v1/audit/export?format=csv&start_date=${leg.exportFrom}`;
  const peak = rssSampler(leg.service.pid);
  const cpuBefore = cpuSeconds(leg.service.pid);
  const started = process.hrtime.bigint();
  const response = await fetch(`${leg.service.baseUrl}${path}`, { headers: { authorization: `Bearer ${leg.tokens[0]}` } });
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  let bytes = 0;
  let lines = 0;
  for await (const chunk of response.body) {
    bytes += chunk.length;
    for (let i = 0; i < chunk.length; i += 1) if (chunk[i] === 10) lines += 1;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { rows: lines - 1, bytes, seconds, rowsPerSecond: (lines - 1) / seconds, peakRssMiB: peak(), cpuMs: (cpuSeconds(leg.service.pid) - cpuBefore) * 1000 };
}

/** The same rows as the export, by COPY to STDOUT in psql (its output thrown away as the client's is). */
function copyLimit(leg) {
  const columns = ['id', 'created_at', 'user_id', 'user_email', 'user_name', 'action_type', 'entity_type', 'entity_id', 'status', 'ip_address', 'user_agent', 'action_details'];
  const query = `copy (select ${columns.join(', ')} from audit_log where enterprise_id = '${leg.tenant}' and created_at >= '${leg.exportFrom}'::date order by chain_seq) to stdout (format csv, header)`;
  const started = process.hrtime.bigint();
  const run = spawnSync('sh', ['-c', `psql "$1" -X -q -c "$2" | wc -c`, 'sh', leg.sqlUrl, query], { encoding: 'utf8', maxBuffer: 1 << 20 });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (run.status !== 0) throw new Error(`psql copy: ${run.stderr}`);
  return { seconds, rowsPerSecond: leg.exportRows / seconds, bytes: Number(run.stdout.trim()) };
}

/** A client that drops the download after its first MiB: how long until the service's query has ended. */
async function disconnect(leg) {
  const controller = new AbortController();
  const response = await fetch(`${leg.service.baseUrl}/api/v1/audit/export?format=csv&start_date=${leg.exportFrom}`, {
    headers: { authorization: `Bearer ${leg.tokens[0]}` }, signal: controller.signal,
  });
  let bytes = 0;
  try {
    for await (const chunk of response.body) {
      bytes += chunk.length;
      if (bytes > 1 << 20) break;
    }
  } catch {
    // aborted
  }
  controller.abort();
  const droppedAt = Date.now();
  const db = new pg.Client({ connectionString: leg.sqlUrl });
  await db.connect();
  try {
    for (;;) {
      const { rows } = await db.query(`select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()
        and state <> 'idle' and query ilike '%audit_log%'`);
      if (rows[0].n === 0) return Date.now() - droppedAt;
      if (Date.now() - droppedAt > 30_000) return null;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await db.end();
  }
}

const refused = (result) => (result?.non2xx || result?.timeouts ? ` (${result.non2xx} of ${result.total} refused, ${result.timeouts} timed out)` : '');

// ---- the run ----------------------------------------------------------------------------------------------

async function main() {
  const machine = spawnSync('sh', ['-c', "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2; nproc; free -g | awk '/Mem/ {print $2}'"], { encoding: 'utf8' }).stdout.trim().split('\n');
  log(`machine: ${machine[0].trim()}, ${machine[1]} cores, ${machine[2]} GiB; node ${process.version}; load average ${loadAverage()}`);
  log(`scale ${SCALE}; server ${DATABASE_URL}${EMBEDDED_DIR ? `; embedded ${EMBEDDED_DIR}` : ''}; autocannon ${CONNECTIONS} connections, ${DURATION} s (+${WARMUP} s warm-up) per measurement\n`);
  const list = scenarios();
  const results = [];

  // The capture first: a service whose connections log every statement, one request per scenario.
  let captured = new Map();
  if (LIMITS) {
    const reset = await logStatements(ADMIN_URL, DATABASE);
    try {
      // Without the periodic checkpoint signing and webhook dispatch, whose statements would fall between markers.
      const capturing = await startService('capture', { DATABASE_URL }, { env: { AUDIT_CHECKPOINT_INTERVAL_MINUTES: '0', WEBHOOKS_DISPATCH_INTERVAL_MS: '3600000' } });
      const leg = await prepareLeg('capture', capturing, DATABASE_URL);
      for (const scenario of list) {
        // A write is captured several times over different records (the load spreads over many: one record
        // would make the limits wait on one row's lock); approvals take the last BRAs under review.
        const variants = scenario.kind === 'read' ? 1 : VARIANTS;
        const indexOf = (v) => (scenario.key === 'approval' ? leg.underReview.length - 1 - v : v);
        const shot = { key: scenario.key, variants: [], passwordCheck: scenario.kind === 'sign-in' };
        for (let v = 0; v < variants; v += 1) {
          const made = scenario.request(leg, indexOf(scenario.kind === 'read' ? 0 : v + 1));
          const { statements, response } = await capture({
            logPath: PG_LOG, markerUrl: DATABASE_URL, database: DATABASE, name: `${scenario.key}_${v}`,
            warm: v === 0 ? () => send(leg, scenario.request(leg, indexOf(0))) : null,
            send: () => send(leg, made),
          });
          if (response.status >= 300) throw new Error(`capture of ${scenario.key}: ${response.status} ${response.body}`);
          Object.assign(shot, { method: made.method, status: response.status, body: response.body });
          shot.variants.push({ url: made.path, statements });
        }
        captured.set(scenario.key, shot);
        log(`captured ${scenario.key}: ${shot.variants.length} request(s), ${shot.variants[0].statements.length} statements, answer ${shot.status} (${shot.body.length} bytes)`);
      }
      await stop(capturing.child);
    } finally {
      await reset();
    }
    writeFileSync(join(work, 'replay.json'), JSON.stringify([...captured.values()]));
    if (OUT) writeFileSync(`${OUT}.statements.json`, JSON.stringify(Object.fromEntries(captured), null, 1));
  }

  const server = await startService('server', { DATABASE_URL }, { nodeArgs: NODE_OPTIONS });
  const serverLeg = await prepareLeg('server', server, DATABASE_URL);
  let embeddedLeg = null;
  let embeddedOwner = null;
  if (EMBEDDED_DIR) {
    const embedded = await startService('embedded', { DATA_DIR: EMBEDDED_DIR });
    embeddedOwner = await ownerUrlOfEmbedded(EMBEDDED_DIR);
    embeddedLeg = await prepareLeg('embedded', embedded, embeddedOwner.url);
  }
  let replay = null;
  if (LIMITS) {
    const port = await freePort();
    replay = startNode('replay', 'bench/replay-handler.mjs', { DATABASE_URL, PORT: String(port), BENCH_REPLAY: join(work, 'replay.json') });
    replay.baseUrl = `http://127.0.0.1:${port}`;
    await waitFor(`${replay.baseUrl}/`);
  }

  let offset = 0;
  for (const scenario of list) {
    const row = { key: scenario.key, label: scenario.label, load: loadAverage() };
    row.service = await loadService(scenario, serverLeg, offset);
    const shot = captured.get(scenario.key);
    if (replay && shot && (row.service !== null || !scenario.amount)) {
      row.runtime = await measure({
        url: `${replay.baseUrl}/replay/${scenario.key}`, method: shot.method, pid: replay.pid, connections: CONNECTIONS, duration: DURATION,
        warmup: scenario.kind === 'read' ? WARMUP : 0, amount: scenario.amount ? row.service.total : undefined,
      });
      row.database = pgbench({
        url: DATABASE_URL, clients: CONNECTIONS, seconds: DURATION,
        scripts: shot.variants.map((variant, v) => ({ file: join(work, `${scenario.key}-${v}.sql`), script: pgbenchScript(variant.statements) })),
      });
    }
    if (embeddedLeg) row.embedded = await loadService(scenario, embeddedLeg, offset);
    offset += scenario.amount ? (row.service?.total ?? 0) : 0;
    results.push(row);
    const s = row.service;
    log(`${scenario.label.padEnd(30)} service ${fixed(s?.rps).padStart(6)} req/s p50 ${fixed(s?.p50)} p99 ${fixed(s?.p99)} ms ` +
      `CPU ${fixed(s?.cpuMs, 2)} ms/req RSS ${fixed(s?.peakRssMiB)} MiB${refused(s)}` +
      (row.runtime ? ` | runtime ${fixed(row.runtime.rps)} req/s CPU ${fixed(row.runtime.cpuMs, 2)} | db ${fixed(row.database.rps)} req/s` : '') +
      (row.embedded ? ` | embedded ${fixed(row.embedded.rps)} req/s p99 ${fixed(row.embedded.p99)} ms${refused(row.embedded)}` : '') + ` (load ${row.load})`);
  }

  // The export: the service's CSV of the newest EXPORT_ROWS entries against COPY of the same rows.
  let exports = null;
  if (!NO_EXPORT) {
    exports = { rows: serverLeg.exportRows, from: serverLeg.exportFrom };
    exports.service = await exportOnce(serverLeg);
    exports.copy = copyLimit(serverLeg);
    exports.disconnectMs = await disconnect(serverLeg);
    if (embeddedLeg) exports.embedded = await exportOnce(embeddedLeg);
  }

  printTable(results, exports);
  if (OUT) writeFileSync(OUT, JSON.stringify({ scale: SCALE, connections: CONNECTIONS, duration: DURATION, results, exports }, null, 1));
  if (replay) await stop(replay);
  if (embeddedLeg) await stop(embeddedLeg.service.child);
  if (embeddedOwner) await embeddedOwner.release();
  await stop(server.child);
}

function printTable(results, exports) {
  const ratio = (a, b) => (a && b ? (a / b).toFixed(2) : '-');
  log(`\n| Scenario | req/s | p50 ms | p99 ms | refused | CPU ms/req | peak RSS MiB | runtime limit req/s | ratio | CPU runtime/service | database limit req/s | ratio | embedded req/s | embedded/server |`);
  log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const row of results) {
    const s = row.service;
    log(`| ${row.label} | ${fixed(s?.rps)} | ${fixed(s?.p50)} | ${fixed(s?.p99)} | ${s ? s.non2xx + s.timeouts : '-'} | ${fixed(s?.cpuMs, 2)} | ${fixed(s?.peakRssMiB)} | ` +
      `${fixed(row.runtime?.rps)} | ${ratio(s?.rps, row.runtime?.rps)} | ${ratio(row.runtime?.cpuMs, s?.cpuMs)} | ` +
      `${fixed(row.database?.rps)} | ${ratio(s?.rps, row.database?.rps)} | ${fixed(row.embedded?.rps)} | ${ratio(row.embedded?.rps, s?.rps)} |`);
  }
  const e = exports;
  if (e === null) {
    log(`load average at the end: ${loadAverage()}`);
    return;
  }
  log(`\nAudit export, CSV, ${e.rows.toLocaleString('en')} rows (from ${e.from}): service ${e.service.seconds.toFixed(1)} s ` +
    `(${fixed(e.service.rowsPerSecond)} rows/s, ${(e.service.bytes / 1048576).toFixed(0)} MiB, peak RSS ${fixed(e.service.peakRssMiB)} MiB, CPU ${fixed(e.service.cpuMs)} ms); ` +
    `psql COPY ${e.copy.seconds.toFixed(1)} s (${fixed(e.copy.rowsPerSecond)} rows/s): ratio ${ratio(e.service.rowsPerSecond, e.copy.rowsPerSecond)}; ` +
    `a client dropping the download: its query gone after ${e.disconnectMs ?? '> 30,000'} ms` +
    (e.embedded ? `; embedded ${e.embedded.seconds.toFixed(1)} s (${fixed(e.embedded.rowsPerSecond)} rows/s, peak RSS ${fixed(e.embedded.peakRssMiB)} MiB), embedded/server ${ratio(e.embedded.rowsPerSecond, e.service.rowsPerSecond)}` : ''));
  log(`load average at the end: ${loadAverage()}`);
}

// `--mix`: the mixed workload of many signed-in users instead (bench/mix.mjs).
const run = option('mix', false) !== false ? async () => (await import('./mix.mjs')).runMix() : main;
run().then(() => process.exit(0), (error) => {
  console.error(error);
  process.exit(1);
});
