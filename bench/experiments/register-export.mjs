// The risk register export of 100,000 rows: peak RSS of the service and rows per second, CSV and XLSX.
//
//   npm run build && node --import tsx bench/experiments/register-export.mjs [--entities 4000] [--scenarios 25] [--runs 2]
//                     [--database-url postgres://postgres@127.0.0.1:5432]
//
// Data (SQL, in the database `bench_register_export`, dropped and created afresh with the service's
// migrations): an enterprise made through the API (with its default appetite) whose 4,000 legal entities
// each have one approved BRA of 25 included, rated scenarios: a register of 100,000 rows; a second enterprise
// of a tenth of that warms the service up. The service runs as deployed (`node dist/main.js`) on a free port;
// each export is downloaded by this process (nothing kept) while the service's RSS is sampled from /proc
// every 10 ms. "peak" is over the RSS before the download, itself after a warm-up export of the same format.
// The last run reads the XLSX slowly (256 KiB, then 100 ms of pause), as a client on a slow link would.
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { openDatabase } from '../../src/platform/db/engine.ts';
import { dropDatabase, enterpriseWithAdmin, freshDatabase, loadAverage, options, rssMiB, rssSampler, signIn, startService, stop, SUPER_ADMIN } from '../support.mjs';

const option = options();
const ENTITIES = Number(option('entities', '4000'));
const SCENARIOS = Number(option('scenarios', '25'));
const RUNS = Number(option('runs', '2'));
const SERVER_URL = option('database-url', 'postgres://postgres@127.0.0.1:5432');
const DATABASE = 'bench_register_export';
const DATABASE_URL = `${SERVER_URL}/${DATABASE}`;
const log = (...parts) => console.log(...parts);

// ---- the database -------------------------------------------------------------------------------------
await freshDatabase(SERVER_URL, DATABASE, { migrate: true });

// ---- the service (bench/support.mjs: as deployed, rate limits raised) ------------------------------------
const service = await startService('service', { DATABASE_URL });
const BASE = service.baseUrl;

const superToken = await signIn(BASE, SUPER_ADMIN.email, SUPER_ADMIN.password);
const large = await enterpriseWithAdmin(BASE, superToken, 'Bench Register Export');
const small = await enterpriseWithAdmin(BASE, superToken, 'Bench Register Warm-up');

// ---- the data, in SQL ---------------------------------------------------------------------------------
const data = await openDatabase({ kind: 'postgres', url: DATABASE_URL }, { poolSize: 2 });
const { db } = data;
const level = (score) => sql`case when ${score} <= 4 then 'Low' when ${score} <= 9 then 'Medium' when ${score} <= 15 then 'High' else 'Very High' end`;

/** `entities` legal entities, each with one approved BRA of `SCENARIOS` rated scenarios (one named like a formula). */
async function generate(enterpriseId, entities) {
  const started = Date.now();
  await sql`insert into legal_entities (enterprise_id, name) select ${enterpriseId}, 'Entity ' || g from generate_series(1, ${entities}::int) g`.execute(db);
  await sql`insert into risk_scenarios (enterprise_id, name, category)
    select ${enterpriseId}, case when g = 1 then '=HYPERLINK("http://evil.example")' else 'Bench scenario ' || lpad(g::text, 3, '0') end,
           (array['Internal fraud','External fraud','Business disruption','Execution and delivery'])[1 + g % 4]
    from generate_series(1, 100) g`.execute(db);
  await sql`insert into bras (enterprise_id, name, legal_entity_id, status, period, assessor, approved_at)
    select ${enterpriseId}, 'Bench BRA ' || le.name, le.id, 'approved', 'FY2026', 'Bench assessor',
           timestamptz '2026-06-30' + row_number() over (order by le.id) * interval '1 minute'
      from legal_entities le where le.enterprise_id = ${enterpriseId}`.execute(db);
  await sql`insert into bra_risk_scenarios (enterprise_id, bra_id, risk_scenario_id, included)
    select b.enterprise_id, b.id, rs.id, true
      from (select id, enterprise_id, row_number() over (order by id) as n from bras where enterprise_id = ${enterpriseId}) b
      join lateral (select id from risk_scenarios where enterprise_id = b.enterprise_id order by name offset (b.n % 75) limit ${SCENARIOS}::int) rs on true`.execute(db);
  for (const [type, salt] of [['inherent', 3], ['residual', 7]]) {
    await sql`insert into bra_ratings (enterprise_id, bra_id, bra_risk_scenario_id, rating_type, impact_score, likelihood_score, risk_score, risk_level)
      select enterprise_id, bra_id, id, ${type}, i, l, i * l, ${level(sql`i * l`)}
        from (select l.*, 1 + abs(hashtext(l.id::text || ${salt}::text)) % 5 as i, 1 + abs(hashtext(l.id::text || ${salt + 1}::text)) % 5 as l
                from bra_risk_scenarios l where l.enterprise_id = ${enterpriseId}) x`.execute(db);
  }
  await sql`analyze`.execute(db);
  const { rows } = await sql`select count(*)::int as n from bra_risk_scenarios where enterprise_id = ${enterpriseId}`.execute(db);
  log(`  ${entities.toLocaleString('en')} approved BRAs, ${rows[0].n.toLocaleString('en')} scenario links in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return rows[0].n;
}

log(`data (load average ${loadAverage()}):`);
const rows = await generate(large.id, ENTITIES);
const warmRows = await generate(small.id, Math.max(1, Math.round(ENTITIES / 10)));
await data.close();

// ---- the exports --------------------------------------------------------------------------------------

/** One download, read to the end and counted; `slow` pauses 100 ms after each 256 KiB. */
async function exportRss(format, token, expectedRows, { slow = false } = {}) {
  const baseline = rssMiB(service.pid);
  const peakRss = rssSampler(service.pid, 10);
  const started = Date.now();
  const response = await fetch(`${BASE}/api/v1/risk-register/export?format=${format}`, { headers: { authorization: `Bearer ${token}` } });
  if (response.status !== 200) throw new Error(`export ${format}: ${response.status}`);
  let bytes = 0;
  let lines = 0;
  let sincePause = 0;
  for await (const chunk of response.body) {
    bytes += chunk.length;
    if (format === 'csv') for (const byte of chunk) if (byte === 10) lines += 1;
    sincePause += chunk.length;
    if (slow && sincePause >= 256 * 1024) {
      sincePause = 0;
      await sleep(100);
    }
  }
  const seconds = (Date.now() - started) / 1000;
  const peak = peakRss();
  if (format === 'csv' && lines - 1 !== expectedRows) throw new Error(`CSV: ${lines - 1} rows, expected ${expectedRows}`);
  return { baseline, peak, seconds, bytes, rowsPerSecond: expectedRows / seconds };
}

log(`\nexports: the service process RSS (from /proc, every 10 ms) while one download runs; ${rows.toLocaleString('en')} rows`);
for (const format of ['csv', 'xlsx']) {
  const warm = await exportRss(format, small.token, warmRows);
  log(`${format.toUpperCase().padEnd(4)} warm-up (${warmRows.toLocaleString('en')} rows)      ${(warm.bytes / 1048576).toFixed(1).padStart(5)} MiB in ${warm.seconds.toFixed(1).padStart(5)} s; ` +
    `RSS ${warm.baseline.toFixed(0)} MiB before, peak ${warm.peak.toFixed(0)} MiB (+${(warm.peak - warm.baseline).toFixed(0)} MiB)`);
  for (let run = 1; run <= RUNS; run += 1) {
    const r = await exportRss(format, large.token, rows);
    log(`${format.toUpperCase().padEnd(4)} run ${run} (${rows.toLocaleString('en')} rows)        ${(r.bytes / 1048576).toFixed(1).padStart(5)} MiB in ${r.seconds.toFixed(1).padStart(5)} s, ` +
      `${Math.round(r.rowsPerSecond).toLocaleString('en').padStart(6)} rows/s; RSS ${r.baseline.toFixed(0)} MiB before, peak ${r.peak.toFixed(0)} MiB ` +
      `(+${(r.peak - r.baseline).toFixed(0)} MiB); load ${loadAverage()}`);
  }
}
const slow = await exportRss('xlsx', large.token, rows, { slow: true });
log(`XLSX slow client (${rows.toLocaleString('en')} rows)  ${(slow.bytes / 1048576).toFixed(1).padStart(5)} MiB in ${slow.seconds.toFixed(1).padStart(5)} s, ` +
  `${Math.round(slow.rowsPerSecond).toLocaleString('en').padStart(6)} rows/s; RSS ${slow.baseline.toFixed(0)} MiB before, peak ${slow.peak.toFixed(0)} MiB ` +
  `(+${(slow.peak - slow.baseline).toFixed(0)} MiB); load ${loadAverage()}`);

await stop(service.child);
await dropDatabase(SERVER_URL, DATABASE);
process.exit(0);
