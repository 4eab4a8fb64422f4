// The mixed workload (`npm run bench -- --mix`): many signed-in users of a console at once, each making one
// request every few seconds, drawn from the scenarios in the proportions a console session makes (MIX below),
// on the PostgreSQL server and, with --embedded, on the embedded engine, one leg after the other.
//
//   npm run bench -- --mix [--scale small] [--users 750] [--interval 5] [--duration 60] [--warmup 5]
//                    [--database-url postgres://postgres@127.0.0.1:5432/bench_small] [--embedded DIR]
//                    [--timeout 10] [--seed 1] [--without kind,…] [--out mix.json] [--service-node-options="--cpu-prof"]
//
// Users: spread over the scale's enterprises in proportion to their BRAs (the data's skew, bench/data.mjs:
// the biggest tenant gets the most), each user one of its enterprise's client admins, signed in through the
// API with the generated password (one sign-in per member; the users of an enterprise share its admins' tokens
// in turn when there are more users than admins). Client admins, because they are the members who may make
// every request of the mix: the generated assessors are assigned to one entity and own none of the generated
// BRAs, so they could make neither the writes nor most of the reads.
//
// Written by hand rather than with autocannon (bench/support.mjs's `measure`): autocannon paces connections,
// not users (a connection sends its next request when the previous one is answered, or at a rate per
// connection), records one latency histogram for all requests, and knows no state between requests; the mix
// needs a fixed rate per user (an open loop: a slow answer does not delay the user's next request, so a
// saturated service shows as latency and refusals, not as fewer requests), latencies per kind, and a BRA's
// state for its transitions (submit when in progress, return when under review). The scheduler is one timer per
// user; the requests go through `node:http` with a keep-alive agent (one socket per request in flight, reused),
// which costs the load generator less CPU than fetch on a machine it shares with the service.
//
// Reported per kind and overall: p50/p95/p99/max latency of the requests started in the measured window,
// refused answers (429, 5xx) and timeouts (no answer within --timeout s, the request then aborted), other
// non-2xx answers (listed: a transition's 409 when a move the harness gave up on was applied after all), req/s
// answered, the CPU ms per answered request of the service process (/proc, as bench/support.mjs measures it)
// and of the database's backends (its pooled connections' processes), the service's peak RSS, the machine's
// busy CPU share (/proc/stat), and how late the scheduler fired (the load generator shares the cores: a late
// tick is a request sent late). A saturated service still works on requests whose client gave up: its CPU per
// answered request then overstates a request's cost (per request sent is shown beside it).
import http from 'node:http';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { BENCH_PASSWORD } from './data.mjs';
import { cpuSeconds, fixed, loadAverage, options, ownerUrlOfEmbedded, rssSampler, signIn, startService, stop } from './support.mjs';

/**
 * What a console session sends, in percent of its requests. An admin's session as the console makes it: most
 * page views are lists and the details opened from them; the dashboard and the register are the landing pages
 * (every session opens one of them at least once, a few more times to come back); ratings are the assessment's
 * work, the bulk of a session's writes; a BRA moves (submit, return) a few times a day; searches are the lists'
 * filters (the console has no free-text search: the audit trail by record, BRAs by status, actions overdue);
 * `/me` and the notification list are what each page shell polls.
 */
export const MIX = [
  // lists: 28
  { kind: 'bra-list', group: 'list', weight: 10 },
  { kind: 'action-list', group: 'list', weight: 6 },
  { kind: 'scenario-list', group: 'list', weight: 4 },
  { kind: 'sub-control-list', group: 'list', weight: 4 },
  { kind: 'entity-list', group: 'list', weight: 4 },
  // details: 20
  { kind: 'bra-detail', group: 'detail', weight: 14 },
  { kind: 'sub-control-detail', group: 'detail', weight: 6 },
  // landing pages: 16
  { kind: 'dashboard', group: 'dashboard', weight: 8 },
  { kind: 'register', group: 'register', weight: 8 },
  // writes: 14
  { kind: 'rating-write', group: 'write', weight: 12 },
  { kind: 'transition', group: 'write', weight: 2 },
  // searches: 14
  { kind: 'audit-search', group: 'search', weight: 5 },
  { kind: 'bra-search', group: 'search', weight: 4 },
  { kind: 'action-search', group: 'search', weight: 5 },
  // the page shell: 8
  { kind: 'me', group: 'shell', weight: 5 },
  { kind: 'notifications', group: 'shell', weight: 3 },
];

const option = options();
/** `--without a,b`: the mix without these kinds (the others keep their weights, so their shares grow). */
const WITHOUT = new Set(String(option('without', '')).split(',').filter(Boolean));
for (const kind of WITHOUT) if (!MIX.some((entry) => entry.kind === kind)) throw new Error(`--without: no kind ${kind}`);
const PLAYED = MIX.filter((entry) => !WITHOUT.has(entry.kind));
const SCALE = option('scale', 'small');
const DATABASE_URL = option('database-url', process.env.DATABASE_URL ?? `postgres://postgres@127.0.0.1:5432/bench_${SCALE}`);
const EMBEDDED_DIR = option('embedded', null);
const USERS = Number(option('users', '750'));
const INTERVAL_S = Number(option('interval', '5'));
const DURATION_S = Number(option('duration', '60'));
const WARMUP_S = Number(option('warmup', String(INTERVAL_S)));
const TIMEOUT_S = Number(option('timeout', '10'));
const SEED = Number(option('seed', '1'));
const OUT = option('out', null);
const NODE_OPTIONS = String(option('service-node-options', '')).split(' ').filter(Boolean);
/** Per enterprise: BRAs whose status the transitions toggle (kept apart from the ones rated). */
const TRANSITION_BRAS = 8;
const SAMPLE = 50;
/** Access tokens live an hour (src/platform/auth/token-lifetimes.ts): one from a run less than 40 minutes ago still outlasts this one. */
const TOKEN_REUSE_MS = 40 * 60 * 1000;
const log = (...parts) => console.log(...parts);

/** A small seeded generator (mulberry32): the same seed draws the same users' phases and kinds. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `total` split in proportion to `weights`, exactly (largest remainders). */
function apportion(total, weights) {
  const sum = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (total * w) / sum);
  const counts = exact.map(Math.floor);
  let left = total - counts.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => [x - Math.floor(x), i]).sort((a, b) => b[0] - a[0]);
  for (let k = 0; left > 0; k += 1, left -= 1) counts[order[k][1]] += 1;
  return counts;
}

// ---- a leg: the enterprises, their users and the ids their requests use ---------------------------------------

async function prepareLeg(name, service, sqlUrl) {
  const db = new pg.Client({ connectionString: sqlUrl });
  await db.connect();
  const rows = async (text, params = []) => (await db.query(text, params)).rows;
  const byTenant = (list) => list.reduce((map, row) => map.set(row.enterprise_id, [...(map.get(row.enterprise_id) ?? []), row]), new Map());
  const tenants = await rows(`select e.id, e.name, count(b.id)::int as bras from enterprises e join bras b on b.enterprise_id = e.id
    where e.name like 'Bench Enterprise %' group by e.id, e.name order by e.name`);
  if (tenants.length === 0) throw new Error(`${name}: no bench data (npm run bench:data -- --scale ${SCALE})`);
  const shares = apportion(USERS, tenants.map((t) => t.bras));
  const admins = byTenant(await rows(`select m.enterprise_id, u.email from enterprise_members m join users u on u.id = m.user_id
    where m.role = 'admin' and u.email like '%.bench.test' order by m.enterprise_id, u.email`));
  const approved = byTenant(await rows(`select enterprise_id, id from (select enterprise_id, id, row_number() over (partition by enterprise_id order by name) as n
    from bras where status = 'approved') b where n <= $1`, [SAMPLE]));
  // Live BRAs: the first few of each enterprise (in progress or under review) are the transitions' and are
  // never rated (a rating of a BRA under review is a 409); the others in progress are rated.
  const live = byTenant(await rows(`select enterprise_id, id, status, row_number() over (partition by enterprise_id order by id) as n
    from bras where status in ('in_progress', 'under_review') order by enterprise_id, id`));
  const links = byTenant(await rows(`select l.enterprise_id, l.bra_id, l.id from bra_risk_scenarios l join bras b on b.enterprise_id = l.enterprise_id and b.id = l.bra_id
    where b.status = 'in_progress' and l.included order by l.enterprise_id, l.bra_id, l.id`));
  const subControls = byTenant(await rows(`select enterprise_id, id from (select enterprise_id, id, row_number() over (partition by enterprise_id order by id) as n
    from sub_controls where not archived) s where n <= $1`, [SAMPLE]));
  await db.end();

  const started = Date.now();
  const tokenFile = join(tmpdir(), `bench-mix-tokens-${createHash('sha256').update(sqlUrl).digest('hex').slice(0, 12)}.json`);
  const kept = existsSync(tokenFile) ? JSON.parse(readFileSync(tokenFile, 'utf8')) : {};
  const legTenants = [];
  const users = [];
  let signIns = 0;
  let reused = 0;
  for (const [i, tenant] of tenants.entries()) {
    if (shares[i] === 0) continue;
    const members = (admins.get(tenant.id) ?? []).slice(0, shares[i]);
    const tokens = [];
    // A few sign-ins at once: each is one scrypt derivation on the service's libuv pool. A token of an
    // earlier run on the same database is used again while it has a while to live (sign-ins are not measured).
    const fresh = members.filter(({ email }) => !(kept[email]?.at > Date.now() - TOKEN_REUSE_MS));
    for (let k = 0; k < fresh.length; k += 4) {
      const batch = fresh.slice(k, k + 4);
      const issued = await Promise.all(batch.map(({ email }) => signIn(service.baseUrl, email, BENCH_PASSWORD)));
      batch.forEach(({ email }, b) => (kept[email] = { token: issued[b], at: Date.now() }));
    }
    tokens.push(...members.map(({ email }) => kept[email].token));
    signIns += fresh.length;
    reused += members.length - fresh.length;
    const liveBras = live.get(tenant.id) ?? [];
    const transitionIds = new Set(liveBras.filter((b) => Number(b.n) <= TRANSITION_BRAS && liveBras.length > 2 * TRANSITION_BRAS).map((b) => b.id));
    const state = {
      ...tenant,
      approved: (approved.get(tenant.id) ?? []).map((b) => b.id),
      subControls: (subControls.get(tenant.id) ?? []).map((s) => s.id),
      links: (links.get(tenant.id) ?? []).filter((l) => !transitionIds.has(l.bra_id)),
      // Each: its status as the harness last saw it, and whether a move is in flight (one at a time per BRA).
      moving: liveBras.filter((b) => transitionIds.has(b.id)).map((b) => ({ id: b.id, status: b.status, busy: false })),
      next: 0,
    };
    legTenants.push(state);
    for (let u = 0; u < shares[i]; u += 1) users.push({ tenant: state, token: tokens[u % tokens.length] });
  }
  writeFileSync(tokenFile, JSON.stringify(kept));
  log(`${name}: ${users.length} users over ${legTenants.length} enterprises (${shares.filter(Boolean).slice(0, 5).join(', ')}… users), ` +
    `${signIns} client admins signed in, ${reused} tokens of an earlier run used again (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return { name, service, sqlUrl, users, tenants: legTenants };
}

// ---- the requests ---------------------------------------------------------------------------------------------

const pick = (list, n) => list[n % list.length];

/** The request of a kind for a user, or null when the user's enterprise has nothing to make it on. */
function requestOf(kind, user, n) {
  const t = user.tenant;
  const get = (path) => ({ method: 'GET', path: `/api/v1${path}` });
  switch (kind) {
    case 'bra-list': return get('/bras');
    case 'action-list': return get('/mitigation-actions');
    case 'scenario-list': return get('/risk-scenarios');
    // What the console's finder asks: the first page of 100, newest first (the whole list only on request).
    case 'sub-control-list': return get('/controls/sub-controls?limit=100');
    case 'entity-list': return get('/legal-entities');
    case 'bra-detail': return t.approved.length ? get(`/bras/${pick(t.approved, n)}`) : null;
    case 'sub-control-detail': return t.subControls.length ? get(`/controls/sub-controls/${pick(t.subControls, n)}`) : null;
    case 'dashboard': return get('/dashboard');
    case 'register': return get('/risk-register');
    case 'audit-search': return t.approved.length ? get(`/audit?entity_id=${pick(t.approved, n)}`) : get('/audit?action_type=login');
    case 'bra-search': return get(`/bras?status=${['approved', 'in_progress', 'under_review'][n % 3]}`);
    case 'action-search': return get(n % 2 === 0 ? '/mitigation-actions?overdue_only=true' : '/mitigation-actions?status=in_progress');
    case 'me': return get('/me');
    case 'notifications': return get('/notifications');
    case 'rating-write': {
      if (t.links.length === 0) return null;
      const link = pick(t.links, n);
      return { method: 'POST', path: `/api/v1/bras/${link.bra_id}/ratings`,
        body: JSON.stringify({ bra_risk_scenario_id: link.id, rating_type: 'residual', impact_score: 1 + (n % 5), likelihood_score: 1 + (n % 4) }) };
    }
    case 'transition': {
      // The next BRA of the enterprise with no move in flight: submitted when in progress, returned when under review.
      for (let k = 0; k < t.moving.length; k += 1) {
        const bra = t.moving[(t.next + k) % t.moving.length];
        if (bra.busy) continue;
        t.next = (t.next + k + 1) % t.moving.length;
        bra.busy = true;
        return moveOf(bra);
      }
      return null;
    }
    default: throw new Error(`unknown kind ${kind}`);
  }
}

/** A transition's request; its answer tells the BRA's new status (and frees it for the next move). */
function moveOf(bra) {
  const submit = bra.status === 'in_progress';
  return {
    method: 'POST', path: `/api/v1/bras/${bra.id}/${submit ? 'submit' : 'return'}`, body: '{}',
    done: (status) => {
      bra.busy = false;
      // A 409: the BRA is already where this move leads (an earlier move the harness gave up waiting for
      // was applied after all); the next move takes it back.
      if (status < 300 || status === 409) bra.status = submit ? 'under_review' : 'in_progress';
    },
  };
}

/** Stand-ins when an enterprise has nothing for a kind (a small tenant with no BRA in progress): what the user then opens. */
const FALLBACK = { 'rating-write': 'bra-detail', transition: 'rating-write', 'bra-detail': 'bra-list', 'sub-control-detail': 'sub-control-list' };

function send(agent, baseUrl, made, token) {
  const url = new URL(baseUrl);
  const headers = { authorization: `Bearer ${token}` };
  if (made.body !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = Buffer.byteLength(made.body);
  }
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const elapsed = () => Number(process.hrtime.bigint() - started) / 1e6;
    const request = http.request({ host: url.hostname, port: url.port, method: made.method, path: made.path, headers, agent }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode, ms: elapsed(), body: response.statusCode >= 300 ? Buffer.concat(chunks).toString().slice(0, 300) : '' }));
      response.on('error', () => resolve({ status: 0, ms: elapsed(), error: 'response' }));
    });
    // The whole exchange within --timeout (connecting, waiting for the service, reading the answer).
    const deadline = setTimeout(() => request.destroy(new Error('timeout')), TIMEOUT_S * 1000);
    request.on('close', () => clearTimeout(deadline));
    request.on('error', (error) => resolve({ status: 0, ms: elapsed(), error: error.message === 'timeout' ? 'timeout' : error.message }));
    if (made.body !== undefined) request.write(made.body);
    request.end();
  });
}

// ---- a run of the mix on one leg --------------------------------------------------------------------------------

function machineBusy() {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  const idle = fields[3] + fields[4];
  return { idle, total: fields.reduce((a, b) => a + b, 0) };
}

/**
 * CPU seconds so far of each backend process serving the database (the service's pooled connections; on the
 * embedded engine too, its backends are processes of this machine). A backend that ends within the window
 * is missed, one that starts in it counted whole.
 */
async function backendCpu(sqlUrl) {
  const db = new pg.Client({ connectionString: sqlUrl });
  await db.connect();
  try {
    const { rows } = await db.query(`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()
      and backend_type = 'client backend'`);
    return new Map(rows.map(({ pid }) => [pid, cpuSeconds(pid)]).filter(([, seconds]) => seconds !== null));
  } finally {
    await db.end();
  }
}

const percentile = (sorted, p) => (sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]);

async function runLeg(leg) {
  const draw = random(SEED);
  const cumulative = [];
  const totalWeight = PLAYED.reduce((sum, entry) => sum + entry.weight, 0);
  PLAYED.reduce((sum, entry) => (cumulative.push([sum + entry.weight, entry.kind]), sum + entry.weight), 0);
  const drawKind = () => {
    const x = draw() * totalWeight;
    return cumulative.find(([upTo]) => x < upTo)[1];
  };
  const agent = new http.Agent({ keepAlive: true, maxSockets: USERS });
  const records = [];
  const lateness = [];
  const errors = new Map();
  let inFlight = 0;
  let n = 0;
  const t0 = Date.now() + 200;
  const measureFrom = t0 + WARMUP_S * 1000;
  const end = measureFrom + DURATION_S * 1000;
  let cpuBefore = null;
  let busyBefore = null;
  let harnessBefore = null;
  let peakRss = null;
  let backendsBefore = null;
  const window = setTimeout(() => {
    backendsBefore = backendCpu(leg.sqlUrl);
    cpuBefore = cpuSeconds(leg.service.pid);
    harnessBefore = process.cpuUsage();
    busyBefore = machineBusy();
    peakRss = rssSampler(leg.service.pid);
  }, measureFrom - Date.now());
  const allDone = new Promise((resolve) => {
    let running = leg.users.length;
    for (const user of leg.users) {
      let due = t0 + draw() * INTERVAL_S * 1000;
      const tick = async () => {
        const now = Date.now();
        if (now >= end) {
          running -= 1;
          if (running === 0) resolve();
          return;
        }
        const measured = due >= measureFrom;
        if (measured) lateness.push(now - due);
        due += INTERVAL_S * 1000;
        setTimeout(tick, Math.max(0, due - Date.now()));
        let kind = drawKind();
        let made = requestOf(kind, user, n);
        while (made === null && FALLBACK[kind]) {
          kind = FALLBACK[kind];
          made = requestOf(kind, user, n);
        }
        n += 1;
        inFlight += 1;
        const answer = await send(agent, leg.service.baseUrl, made, user.token);
        inFlight -= 1;
        made.done?.(answer.status);
        if (!measured) return;
        records.push({ kind, ...answer, at: Date.now() });
        if (answer.status >= 300 && answer.status !== 429 && answer.status < 500) {
          const key = `${kind} ${answer.status} ${answer.body.replace(/"request_id":"[^"]*",?/, '').slice(0, 160)}`;
          errors.set(key, (errors.get(key) ?? 0) + 1);
        }
      };
      setTimeout(tick, Math.max(0, due - Date.now()));
    }
  });
  await allDone;
  while (inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  clearTimeout(window);
  const finishedAt = Date.now();
  const cpu = cpuSeconds(leg.service.pid) - cpuBefore;
  const backendsAfter = await backendCpu(leg.sqlUrl);
  const before = await backendsBefore;
  const databaseCpu = [...backendsAfter].reduce((sum, [pid, seconds]) => sum + seconds - (before.get(pid) ?? 0), 0);
  const busyAfter = machineBusy();
  const harness = process.cpuUsage(harnessBefore);
  const peak = peakRss();
  agent.destroy();

  const summarise = (list) => {
    const ms = list.map((r) => r.ms).sort((a, b) => a - b);
    const ok = list.filter((r) => r.status >= 200 && r.status < 300).length;
    const refused = list.filter((r) => r.status === 429 || r.status >= 500).length;
    const timeouts = list.filter((r) => r.status === 0 && r.error === 'timeout').length;
    const failed = list.filter((r) => r.status === 0 && r.error !== 'timeout').length;
    return { requests: list.length, ok, refused, timeouts, failed, other: list.length - ok - refused - timeouts - failed,
      p50: percentile(ms, 50), p95: percentile(ms, 95), p99: percentile(ms, 99), max: ms.at(-1) ?? null };
  };
  const kinds = Object.fromEntries(MIX.map(({ kind }) => [kind, summarise(records.filter((r) => r.kind === kind))]));
  const groupOf = Object.fromEntries(MIX.map(({ kind, group }) => [kind, group]));
  const groups = Object.fromEntries([...new Set(MIX.map(({ group }) => group))].map((group) => [group, summarise(records.filter((r) => groupOf[r.kind] === group))]));
  const overall = summarise(records);
  const answered = records.filter((r) => r.status > 0).length;
  const late = [...lateness].sort((a, b) => a - b);
  return {
    leg: leg.name, users: leg.users.length, interval: INTERVAL_S, duration: DURATION_S, kinds, groups, overall,
    rps: answered / ((finishedAt - measureFrom) / 1000),
    cpuMsPerRequest: (cpu * 1000) / Math.max(answered, 1),
    cpuMsPerRequestSent: (cpu * 1000) / Math.max(records.length, 1),
    databaseCpuMsPerRequest: (databaseCpu * 1000) / Math.max(answered, 1),
    peakRssMiB: peak,
    harnessCpuMsPerRequest: (harness.user + harness.system) / 1000 / Math.max(records.length, 1),
    machineBusy: 1 - (busyAfter.idle - busyBefore.idle) / Math.max(1, busyAfter.total - busyBefore.total),
    schedulerLateMs: { p50: percentile(late, 50), p99: percentile(late, 99), max: late.at(-1) ?? null },
    errors: Object.fromEntries(errors),
    load: loadAverage(),
  };
}

function printLeg(result) {
  const row = (label, s, share) => `| ${label} | ${share} | ${s.requests} | ${fixed(s.p50)} | ${fixed(s.p95)} | ${fixed(s.p99)} | ${fixed(s.max)} | ` +
    `${s.refused} | ${s.timeouts} | ${s.other + s.failed} |`;
  log(`\n${result.leg}: ${result.users} users, one request each every ${result.interval} s, ${result.duration} s measured; ` +
    `${fixed(result.rps, 1)} req/s answered, service CPU ${fixed(result.cpuMsPerRequest, 2)} ms per answered request, ${fixed(result.cpuMsPerRequestSent, 2)} per request sent, the database's ${fixed(result.databaseCpuMsPerRequest, 2)} per answered request (the harness's ${fixed(result.harnessCpuMsPerRequest, 2)}), peak RSS ${fixed(result.peakRssMiB)} MiB, ` +
    `machine busy ${fixed(result.machineBusy * 100)} %, scheduler late p50 ${fixed(result.schedulerLateMs.p50)} / p99 ${fixed(result.schedulerLateMs.p99)} ms, load ${result.load}`);
  log('| Kind | share % | requests | p50 ms | p95 ms | p99 ms | max ms | refused (429/5xx) | timeouts | other |');
  log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  const total = PLAYED.reduce((sum, entry) => sum + entry.weight, 0);
  for (const { kind, weight } of PLAYED) log(row(kind, result.kinds[kind], fixed((100 * weight) / total)));
  for (const [group, summary] of Object.entries(result.groups)) {
    const weight = PLAYED.filter((entry) => entry.group === group).reduce((sum, entry) => sum + entry.weight, 0);
    log(row(`*${group}*`, summary, fixed((100 * weight) / total)));
  }
  log(row('**overall**', result.overall, 100));
  for (const [key, count] of Object.entries(result.errors)) log(`  other answers: ${count} × ${key}`);
}

export async function runMix() {
  log(`mix: scale ${SCALE}, ${USERS} users, one request every ${INTERVAL_S} s each (${fixed(USERS / INTERVAL_S)} req/s offered), ` +
    `${WARMUP_S} s warm-up + ${DURATION_S} s; load average ${loadAverage()}`);
  const results = [];
  const server = await startService('server', { DATABASE_URL }, { nodeArgs: NODE_OPTIONS });
  try {
    const leg = await prepareLeg('server', server, DATABASE_URL);
    results.push(await runLeg(leg));
    printLeg(results.at(-1));
  } finally {
    await stop(server.child);
  }
  if (EMBEDDED_DIR) {
    const embedded = await startService('embedded', { DATA_DIR: EMBEDDED_DIR }, { nodeArgs: NODE_OPTIONS });
    const owner = await ownerUrlOfEmbedded(EMBEDDED_DIR);
    try {
      const leg = await prepareLeg('embedded', embedded, owner.url);
      results.push(await runLeg(leg));
      printLeg(results.at(-1));
    } finally {
      await stop(embedded.child);
      await owner.release();
    }
  }
  if (OUT) writeFileSync(OUT, JSON.stringify({ scale: SCALE, mix: MIX, results }, null, 1));
}
