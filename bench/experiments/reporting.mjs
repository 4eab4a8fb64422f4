// The risk register and the dashboard under load, and the register export's memory.
//
//   npm run build && node --import tsx bench/experiments/reporting.mjs [--duration 10] [--connections 8]
//                     [--database-url postgres://postgres@127.0.0.1:5432]
//
// Data (SQL, generated in the database `bench_reporting`, dropped and created afresh with the service's
// migrations):
//   - "medium" enterprise: 40 legal entities × 3 business units (160 places, counting each entity itself);
//     per place two approved BRAs (FY2025, FY2026) and one in progress, 25 scenarios each (12,000 scenario
//     links, 24,000 ratings), 400 tested sub-controls, two control links per scenario (24,000) and one
//     mitigation action per scenario (12,000). Its register holds 4,000 rows (the newest approved BRA of
//     each place); its dashboard reads all of it.
//   - "export" enterprise: 4,000 places with one approved BRA of 25 scenarios: a register of 100,000 rows.
// The service runs as deployed (`node dist/main.js`, rate limits raised) on a free port; autocannon measures
// GET /risk-register (page 1 of 25 rows, default sort) and GET /dashboard as the medium enterprise's admin;
// the export of 100,000 rows (CSV, then XLSX) is downloaded while the service's RSS is sampled from /proc
// every 20 ms, beside the export of the medium enterprise's 4,000 rows for comparison.
import { sql } from 'kysely';
import { openDatabase } from '../../src/platform/db/engine.ts';
import { enterpriseWithAdmin, freshDatabase, measure, options, rssMiB, rssSampler, signIn, startService, stop, SUPER_ADMIN } from '../support.mjs';

const option = options();
const DURATION = Number(option('duration', '10'));
const CONNECTIONS = Number(option('connections', '8'));
const SERVER_URL = option('database-url', 'postgres://postgres@127.0.0.1:5432');
const DATABASE = 'bench_reporting';
const DATABASE_URL = `${SERVER_URL}/${DATABASE}`;
const log = (...parts) => console.log(...parts);

// ---- the database -------------------------------------------------------------------------------------
await freshDatabase(SERVER_URL, DATABASE, { migrate: true });

// ---- the service (bench/support.mjs: as deployed, rate limits raised) ------------------------------------
const service = await startService('service', { DATABASE_URL });
const BASE = service.baseUrl;

const superToken = await signIn(BASE, SUPER_ADMIN.email, SUPER_ADMIN.password);
const medium = await enterpriseWithAdmin(BASE, superToken, 'Bench Medium');
const large = await enterpriseWithAdmin(BASE, superToken, 'Bench Export');

// ---- the data, in SQL ---------------------------------------------------------------------------------
const data = await openDatabase({ kind: 'postgres', url: DATABASE_URL }, { poolSize: 2 });
const { db } = data;
const level = (score) => sql`case when ${score} <= 4 then 'Low' when ${score} <= 9 then 'Medium' when ${score} <= 15 then 'High' else 'Very High' end`;

async function generate(enterpriseId, { entities, unitsPerEntity, brasPerPlace, scenariosPerBra, subControls, controlsPerScenario, actions }) {
  const started = Date.now();
  await sql`insert into legal_entities (enterprise_id, name) select ${enterpriseId}, 'Entity ' || g from generate_series(1, ${entities}) g`.execute(db);
  await sql`insert into business_units (enterprise_id, legal_entity_id, name)
    select ${enterpriseId}, le.id, 'Unit ' || u from legal_entities le, generate_series(1, ${unitsPerEntity}) u where le.enterprise_id = ${enterpriseId}`.execute(db);
  await sql`insert into risk_scenarios (enterprise_id, name, category)
    select ${enterpriseId}, 'Bench scenario ' || g, (array['Internal fraud','External fraud','Business disruption','Execution and delivery'])[1 + g % 4]
    from generate_series(1, 100) g`.execute(db);
  // Places: each entity itself and each of its units; per place BRAs k = 1.. (the last one live when there are 3).
  await sql`insert into bras (enterprise_id, name, legal_entity_id, business_unit_id, status, period, assessor, approved_at)
    select ${enterpriseId}, 'Bench BRA ' || p.n || '-' || k, p.le, p.bu,
           case when k = 3 then 'in_progress' else 'approved' end, 'FY' || (2024 + k), 'Bench assessor',
           case when k = 3 then null else timestamptz '2024-06-30' + k * interval '1 year' + p.n * interval '1 minute' end
      from (select row_number() over (order by le, bu nulls first) as n, le, bu
              from (select id as le, null::uuid as bu from legal_entities where enterprise_id = ${enterpriseId}
                    union all select legal_entity_id, id from business_units where enterprise_id = ${enterpriseId}) places) p,
           generate_series(1, ${brasPerPlace}) k`.execute(db);
  await sql`insert into bra_risk_scenarios (enterprise_id, bra_id, risk_scenario_id, included)
    select b.enterprise_id, b.id, rs.id, true
      from (select id, enterprise_id, row_number() over (order by id) as n from bras where enterprise_id = ${enterpriseId}) b
      join lateral (select id from risk_scenarios where enterprise_id = b.enterprise_id order by name offset (b.n % 75) limit ${scenariosPerBra}) rs on true`.execute(db);
  for (const [type, salt] of [['inherent', 3], ['residual', 7]]) {
    await sql`insert into bra_ratings (enterprise_id, bra_id, bra_risk_scenario_id, rating_type, impact_score, likelihood_score, risk_score, risk_level)
      select enterprise_id, bra_id, id, ${type}, i, l, i * l, ${level(sql`i * l`)}
        from (select l.*, 1 + abs(hashtext(l.id::text || ${salt})) % 5 as i, 1 + abs(hashtext(l.id::text || ${salt + 1})) % 5 as l
                from bra_risk_scenarios l where l.enterprise_id = ${enterpriseId}) x`.execute(db);
  }
  if (subControls > 0) {
    await sql`insert into key_controls (enterprise_id, name) select ${enterpriseId}, 'Key control ' || g from generate_series(1, ${subControls / 10}) g`.execute(db);
    await sql`insert into sub_controls (enterprise_id, key_control_id, name, tod, toe, total_effectiveness, testing_date)
      select kc.enterprise_id, kc.id, kc.name || ' / ' || s, t.tod, t.toe, t.eff, date '2025-01-01' + (s * 37) % 700
        from key_controls kc, generate_series(1, 10) s,
             lateral (select (array['A','B','C','D','E'])[1 + s % 5] as tod, (array['1','2','3','4','5'])[1 + (s * 3) % 5] as toe) pair,
             lateral (select pair.tod, pair.toe, (array['Highly Effective','Effective','Moderately Effective','Less Effective','Not Effective'])[least(5, 1 + (s % 5 + (s * 3) % 5) / 2)] as eff) t
       where kc.enterprise_id = ${enterpriseId}`.execute(db);
    await sql`insert into bra_controls (enterprise_id, bra_id, sub_control_id, bra_risk_scenario_id)
      select l.enterprise_id, l.bra_id, sc.id, l.id
        from (select l.*, row_number() over (order by l.id) as n from bra_risk_scenarios l where l.enterprise_id = ${enterpriseId}) l
        join lateral (select id from sub_controls where enterprise_id = l.enterprise_id order by id offset (l.n % ${subControls - controlsPerScenario}) limit ${controlsPerScenario}) sc on true`.execute(db);
  }
  if (actions) {
    await sql`insert into mitigation_actions (enterprise_id, action, owner, status, priority, action_type, due_date, bra_id, bra_risk_scenario_id)
      select l.enterprise_id, 'Bench action', 'Operations', (array['created','in_progress','completed'])[1 + abs(hashtext(l.id::text)) % 3],
             (array['low','medium','high','critical'])[1 + abs(hashtext(l.id::text || 'p')) % 4], 'Process',
             current_date + (abs(hashtext(l.id::text || 'd')) % 120 - 60), l.bra_id, l.id
        from bra_risk_scenarios l where l.enterprise_id = ${enterpriseId}`.execute(db);
  }
  await sql`analyze`.execute(db);
  const count = async (table) => Number((await sql`select count(*) as n from ${sql.table(table)} where enterprise_id = ${enterpriseId}`.execute(db)).rows[0].n);
  log(`  ${(await count('bras')).toLocaleString('en')} BRAs, ${(await count('bra_risk_scenarios')).toLocaleString('en')} scenario links, ` +
    `${(await count('bra_ratings')).toLocaleString('en')} ratings, ${(await count('bra_controls')).toLocaleString('en')} control links, ` +
    `${(await count('mitigation_actions')).toLocaleString('en')} actions in ${Math.round((Date.now() - started) / 1000)} s`);
}

log('medium enterprise:');
await generate(medium.id, { entities: 40, unitsPerEntity: 3, brasPerPlace: 3, scenariosPerBra: 25, subControls: 400, controlsPerScenario: 2, actions: true });
log('export enterprise:');
await generate(large.id, { entities: 1000, unitsPerEntity: 3, brasPerPlace: 1, scenariosPerBra: 25, subControls: 0, controlsPerScenario: 0, actions: false });
await data.close();

// ---- load ---------------------------------------------------------------------------------------------

async function load(label, path, token) {
  const headers = { authorization: `Bearer ${token}` };
  const first = await fetch(`${BASE}${path}`, { headers });
  if (first.status !== 200) throw new Error(`${path}: ${first.status} ${await first.text()}`);
  const result = await measure({ url: `${BASE}${path}`, pid: service.pid, connections: CONNECTIONS, duration: DURATION, warmup: 3, headers, allowNon2xx: true });
  const ok = result.total - result.non2xx;
  // CPU per answer of 200 (measure's is per answer of any status).
  const cpuPerOk = result.cpuMs === null ? null : (result.cpuMs * Math.max(result.total, 1)) / Math.max(ok, 1);
  log(`${label.padEnd(28)} p50 ${String(result.p50).padStart(5)} ms  p99 ${String(result.p99).padStart(5)} ms  ` +
    `${result.rps.toFixed(0).padStart(6)} req/s  ${cpuPerOk === null ? '-' : cpuPerOk.toFixed(2)} ms CPU/request  (${ok} × 200, ${result.non2xx} other)`);
}

log(`\nload: autocannon, ${CONNECTIONS} connections, ${DURATION} s each (after a 3 s warm-up), the medium enterprise's admin`);
await load('GET /risk-register (25 rows)', '/api/v1/risk-register', medium.token);
await load('GET /risk-register?sort=name', '/api/v1/risk-register?sort=name&above_appetite=true', medium.token);
await load('GET /dashboard', '/api/v1/dashboard', medium.token);

// ---- export memory ------------------------------------------------------------------------------------
async function exportRss(label, path, token) {
  const baseline = rssMiB(service.pid);
  const peakRss = rssSampler(service.pid);
  const started = Date.now();
  const response = await fetch(`${BASE}${path}`, { headers: { authorization: `Bearer ${token}` } });
  if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
  let bytes = 0;
  let lines = 0;
  for await (const chunk of response.body) {
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 10) lines += 1;
  }
  const peak = peakRss();
  const rows = path.includes('xlsx') ? '' : `${(lines - 1).toLocaleString('en')} rows, `;
  log(`${label.padEnd(34)} ${rows}${(bytes / 1048576).toFixed(1)} MiB in ${((Date.now() - started) / 1000).toFixed(1)} s; ` +
    `service RSS ${baseline.toFixed(0)} MiB before, peak ${peak.toFixed(0)} MiB (+${(peak - baseline).toFixed(0)} MiB)`);
}

log('\nexport: the service process RSS (from /proc, every 20 ms) while one download runs');
await exportRss('CSV, medium (4,000 rows)', '/api/v1/risk-register/export?format=csv', medium.token);
await exportRss('CSV, export enterprise (100,000)', '/api/v1/risk-register/export?format=csv', large.token);
await exportRss('XLSX, medium (4,000 rows)', '/api/v1/risk-register/export?format=xlsx', medium.token);
await exportRss('XLSX, export enterprise (100,000)', '/api/v1/risk-register/export?format=xlsx', large.token);
await exportRss('CSV, export enterprise again', '/api/v1/risk-register/export?format=csv', large.token);

await stop(service.child);
process.exit(0);
