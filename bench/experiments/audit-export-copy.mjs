// The audit export (CSV) of 1,000,000 entries against psql's COPY of the same rows, and the service's peak RSS growth.
//
//   npm run build && node --import tsx bench/experiments/audit-export-copy.mjs [--rows 1000000] [--runs 2]
//                     [--database-url postgres://postgres@127.0.0.1:5432] [--before /tmp/audit-export-before]
//
// Data (SQL, in the database `bench_audit_export_copy`, dropped and created afresh with the service's
// migrations): an enterprise made through the API whose trail gets `rows` entries by one generate_series
// INSERT, in the mix of bench/data.mjs (sign-ins, refusals, ratings, updates with their changes, approvals);
// a second enterprise of a tenth of that warms the service up. The service runs as deployed
// (`node dist/main.js`) on a free port. Each run, one after the other on the same rows:
//  - `psql COPY (select <the export's columns> … order by chain_seq desc) TO STDOUT (FORMAT csv, HEADER)`, the
//    columns as they are (bench/README.md's measure), into `wc -c`;
//  - psql running the service's own COPY statement (the cells' text in SQL), into `wc -c`;
//  - the service's `GET /api/v1/audit/export?format=csv`, read by this process to the end (bytes counted,
//    nothing kept), while the service's RSS is sampled from /proc every 10 ms: "growth" is the peak over the
//    RSS before the download (itself after a warm-up export of the small enterprise);
//  - with `--before <dir>`: the same download from a second service built from an earlier checkout in <dir>
//    (its `dist/`), on the same database, measured the same way.
// Then the stream alone, no database and no HTTP: the service's COPY output, written once to a file by psql,
// read `--passes` times (default 3) through platform/export/copy-csv.ts's CopyCsvLines, and with `--before`
// through <dir>'s, alternately; the CPU seconds of this process per pass (process.cpuUsage), which a loaded
// machine disturbs far less than wall time.
// Then one more download from each service is hashed (SHA-256): the two files must be the same bytes.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';
import { get as httpGet } from 'node:http';
import { sql } from 'kysely';
import { openDatabase } from '../../src/platform/db/engine.ts';
import { csvExportQuery } from '../../src/modules/audit-trail/audit-trail.repository.ts';
import { CopyCsvLines, copyCsvStatement } from '../../src/platform/export/copy-csv.ts';
import { dropDatabase, enterpriseWithAdmin, freshDatabase, loadAverage, options, rssMiB, rssSampler, signIn, startService, stop, SUPER_ADMIN } from '../support.mjs';

const option = options();
const ROWS = Number(option('rows', '1000000'));
const RUNS = Number(option('runs', '2'));
const PASSES = Number(option('passes', '3'));
const SERVER_URL = option('database-url', 'postgres://postgres@127.0.0.1:5432');
const BEFORE = option('before', null);
const DATABASE = 'bench_audit_export_copy';
const DATABASE_URL = `${SERVER_URL}/${DATABASE}`;
const log = (...parts) => console.log(...parts);

// ---- the database -------------------------------------------------------------------------------------
await freshDatabase(SERVER_URL, DATABASE, { migrate: true });

const after = await startService('after', { DATABASE_URL });
const before = BEFORE === null ? null : await startService('before', { DATABASE_URL }, { cwd: BEFORE });
const superToken = await signIn(after.baseUrl, SUPER_ADMIN.email, SUPER_ADMIN.password);
const large = await enterpriseWithAdmin(after.baseUrl, superToken, 'Bench Audit Export');
const small = await enterpriseWithAdmin(after.baseUrl, superToken, 'Bench Audit Warm-up');

// ---- the trail, in SQL (the mix of bench/data.mjs; the hashes are not what is measured) ---------------------
const data = await openDatabase({ kind: 'postgres', url: DATABASE_URL }, { poolSize: 2 });
const { db } = data;
async function trail(enterpriseId, rows) {
  const started = Date.now();
  const { rows: last } = await sql`select coalesce(max(chain_seq), 0)::int as n from audit_log where enterprise_id = ${enterpriseId}`.execute(db);
  const base = last[0].n;
  await sql`
    insert into audit_log (id, enterprise_id, chain_seq, user_id, user_email, user_name, action_type, entity_type, entity_id,
      action_details, ip_address, user_agent, status, created_at, prev_hash, hash)
    select gen_random_uuid(), ${enterpriseId}, ${base}::int + g, u.id, u.email, u.full_name,
      case when k < 12 then (case when k < 10 then 'login' else 'logout' end) when k = 12 then 'login' when k = 13 then 'access_denied'
           when k = 14 then 'create' when k = 15 then 'approve' when k < 25 then 'create' else 'update' end,
      case when k <= 12 then 'user' when k = 14 then 'audit_log' when k < 25 then 'bra_rating' else 'bra' end,
      case when k = 14 then null else gen_random_uuid() end,
      case when k < 10 then jsonb_build_object('method', 'password')
           when k < 12 then '{}'::jsonb
           when k = 12 then jsonb_build_object('method', 'password', 'reason', 'invalid_credentials')
           when k = 13 then jsonb_build_object('method', 'PATCH', 'path', '/api/v1/bras/:bra_id')
           when k = 14 then jsonb_build_object('format', 'csv', 'rows', 1000)
           when k = 15 then jsonb_build_object('name', 'Bench BRA ' || g % 2000, 'status', jsonb_build_object('from', 'under_review', 'to', 'approved'))
           when k < 25 then jsonb_build_object('impact_score', 1 + g % 5, 'likelihood_score', 1 + g % 3, 'rating_type', 'residual')
           else jsonb_build_object('name', 'Bench BRA ' || g % 2000, 'changes', jsonb_build_object('description', jsonb_build_object('from', 'Draft', 'to', 'Revision ' || g))) end,
      '10.' || g % 250 || '.' || (g >> 8) % 250 || '.' || g % 7, 'Mozilla/5.0 (bench)',
      case when k in (12, 13) then 'failed' else 'success' end,
      timestamptz '2021-01-01' + g * interval '50 milliseconds', repeat('0', 64), repeat('0', 64)
    from (select g, (g % 50)::int as k from generate_series(1, ${rows}::int) g) s,
      (select u.id, u.email, u.full_name from users u join enterprise_members m on m.user_id = u.id
        where m.enterprise_id = ${enterpriseId} limit 1) u`.execute(db);
  await sql`update audit_chain_heads set last_seq = ${base + rows}::int, last_created_at = now() where chain_key = ${enterpriseId}`.execute(db);
  log(`  ${rows.toLocaleString('en')} entries in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
log(`data (load average ${loadAverage()}):`);
await trail(large.id, ROWS);
await trail(small.id, Math.round(ROWS / 10));
await sql`vacuum analyze audit_log`.execute(db);
const rangeOf = async (enterpriseId) => {
  const { rows } = await sql`select min(chain_seq)::int as "from", max(chain_seq)::int as "to" from audit_log where enterprise_id = ${enterpriseId}`.execute(db);
  return rows[0];
};
const serviceStatement = copyCsvStatement(csvExportQuery(db, large.id, await rangeOf(large.id), {}).compile());
await data.close();

// ---- the measures -------------------------------------------------------------------------------------
const COLUMNS = ['id', 'created_at', 'user_id', 'user_email', 'user_name', 'action_type', 'entity_type', 'entity_id', 'status', 'ip_address', 'user_agent', 'action_details'];
const plainStatement = `copy (select ${COLUMNS.join(', ')} from audit_log where enterprise_id = '${large.id}' order by chain_seq desc) to stdout (format csv, header)`;

/** psql running `statement`, its output counted by wc (thrown away as the client's is). */
function psqlCopy(statement) {
  const started = process.hrtime.bigint();
  const run = spawnSync('sh', ['-c', 'psql "$1" -X -q -c "$2" | wc -c', 'sh', DATABASE_URL, statement], { encoding: 'utf8' });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (run.status !== 0) throw new Error(`psql: ${run.stderr}`);
  return { seconds, bytes: Number(run.stdout.trim()) };
}

/** One download read to the end; `hash`: its SHA-256 too. */
async function download(service, token, { hash = false } = {}) {
  const baseline = rssMiB(service.pid);
  const peakRss = rssSampler(service.pid, 10);
  const digest = hash ? createHash('sha256') : null;
  const started = process.hrtime.bigint();
  // A connection of its own (no keep-alive): an idle one the service has closed meanwhile is never reused.
  const response = await new Promise((resolve, reject) => {
    const req = httpGet(`${service.baseUrl}/api/v1/audit/export?format=csv`, { agent: false, headers: { authorization: `Bearer ${token}` } }, resolve);
    req.on('error', reject);
  });
  if (response.statusCode !== 200) throw new Error(`export: ${response.statusCode}`);
  let bytes = 0;
  for await (const chunk of response) {
    bytes += chunk.length;
    digest?.update(chunk);
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const peak = peakRss();
  return { seconds, bytes, baseline, peak, growth: peak - baseline, sha256: digest?.digest('hex') };
}

const services = before === null ? [after] : [after, before];
for (const service of services) await download(service, small.token);

const mib = (bytes) => (bytes / 1048576).toFixed(1);
const rate = (seconds) => Math.round(ROWS / seconds).toLocaleString('en');
log(`\n${ROWS.toLocaleString('en')} rows; ratio = COPY's seconds / the service's (COPY of the columns as they are)`);
for (let run = 1; run <= RUNS; run += 1) {
  const plain = psqlCopy(plainStatement);
  const same = psqlCopy(serviceStatement);
  log(`run ${run} (load ${loadAverage()}): psql COPY ${plain.seconds.toFixed(2)} s (${rate(plain.seconds)} rows/s, ${mib(plain.bytes)} MiB); ` +
    `psql with the service's statement ${same.seconds.toFixed(2)} s (${mib(same.bytes)} MiB)`);
  for (const service of services) {
    const r = await download(service, large.token);
    log(`  ${service.name.padEnd(6)} ${r.seconds.toFixed(2)} s, ${rate(r.seconds)} rows/s, ${mib(r.bytes)} MiB: ratio ${(plain.seconds / r.seconds).toFixed(2)} ` +
      `(${(same.seconds / r.seconds).toFixed(2)} of the service's statement); RSS ${r.baseline.toFixed(0)} MiB before, peak ${r.peak.toFixed(0)} MiB ` +
      `(+${r.growth.toFixed(0)} MiB)`);
  }
}
if (before !== null) {
  const [a, b] = [await download(after, large.token, { hash: true }), await download(before, large.token, { hash: true })];
  log(`same bytes: ${a.sha256 === b.sha256} (after ${a.sha256.slice(0, 16)}… ${a.bytes} bytes, before ${b.sha256.slice(0, 16)}… ${b.bytes} bytes)`);
}

for (const service of services) await stop(service.child);

// ---- the stream alone ---------------------------------------------------------------------------------
const copyFile = join(tmpdir(), `audit-export-copy-${process.pid}.csv`);
const dump = spawnSync('sh', ['-c', 'psql "$1" -X -q -c "$2" > "$3"', 'sh', DATABASE_URL, serviceStatement, copyFile], { encoding: 'utf8' });
if (dump.status !== 0) throw new Error(`psql: ${dump.stderr}`);
await dropDatabase(SERVER_URL, DATABASE);
const streams = [{ name: 'after', Lines: CopyCsvLines }];
if (BEFORE !== null) streams.push({ name: 'before', Lines: (await import(pathToFileURL(join(BEFORE, 'src/platform/export/copy-csv.ts')).href)).CopyCsvLines });
/** One pass of the file through `Lines`: CPU seconds of this process, wall seconds, bytes out. */
async function pass(Lines) {
  let bytes = 0;
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  await pipeline(createReadStream(copyFile, { highWaterMark: 64 * 1024 }), new Lines(true), new Writable({ write(chunk, _encoding, done) { bytes += chunk.length; done(); } }));
  const used = process.cpuUsage(cpu);
  return { cpu: (used.user + used.system) / 1e6, seconds: Number(process.hrtime.bigint() - started) / 1e9, bytes };
}
log(`\nthe stream alone, ${ROWS.toLocaleString('en')} rows of the service's COPY output (load ${loadAverage()}):`);
for (let n = 1; n <= PASSES; n += 1) {
  for (const { name, Lines } of streams) {
    const r = await pass(Lines);
    log(`  pass ${n} ${name.padEnd(6)} CPU ${r.cpu.toFixed(2)} s, wall ${r.seconds.toFixed(2)} s, ${mib(r.bytes)} MiB out`);
  }
}
rmSync(copyFile, { force: true });
process.exit(0);
