// Measures the audit search on a large generated trail: plans (EXPLAIN ANALYZE, BUFFERS) and times of the
// queries GET /api/v1/audit runs, on page 1 and on deep pages, with and without filters.
//
//   node --import tsx bench/experiments/audit-search.mjs                       # 2,000,000 entries
//   AUDIT_BENCH_ROWS=20000000 node --import tsx bench/experiments/audit-search.mjs
//   BENCH_SERVER_URL=postgres://postgres@127.0.0.1:5432/postgres    # where the bench database is created
//   AUDIT_BENCH_KEEP=1                                              # reuse the generated database next time
//
// The database is created with the service's own migrations; 80 % of the entries belong to one enterprise
// (the worst case for a tenant's search), the rest to four others. Entries are spread over seven years.
// Nothing here comes from bench/support.mjs: no service runs; the repository's queries are called and
// EXPLAINed on the database directly (`measure` below times a query, not a server under load).
import pg from 'pg';
import { sql } from 'kysely';
import { openDatabase } from '../../src/platform/db/engine.ts';
import { migrateToLatest } from '../../src/platform/db/migrator.ts';
import {
  chainRange,
  countMatchingUpTo,
  estimateMatching,
  pageOfMatching,
  pageOfRange,
} from '../../src/modules/audit-trail/audit-trail.repository.ts';

const ROWS = Number(process.env.AUDIT_BENCH_ROWS ?? 2_000_000);
const SERVER = process.env.BENCH_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const NAME = `bench_audit_${ROWS}`;
const url = Object.assign(new URL(SERVER), { pathname: `/${NAME}` }).toString();
const log = (...parts) => console.log(...parts);

const admin = new pg.Client({ connectionString: SERVER });
await admin.connect();
const exists = (await admin.query('select 1 from pg_database where datname = $1', [NAME])).rowCount > 0;
if (exists && !process.env.AUDIT_BENCH_KEEP) await admin.query(`drop database ${NAME} with (force)`);
if (!exists || !process.env.AUDIT_BENCH_KEEP) await admin.query(`create database ${NAME}`);
await admin.end();

const database = await openDatabase({ kind: 'postgres', url }, { poolSize: 2 });
const { db } = database;
await migrateToLatest(database);
const enterprises = (await sql`select id from enterprises order by name`.execute(db)).rows.map((r) => r.id);
if (enterprises.length === 0) {
  const started = Date.now();
  for (let i = 0; i < 5; i += 1) await sql`insert into enterprises (name, country) values (${`Bench ${i}`}, 'GB')`.execute(db);
  const ids = (await sql`select id from enterprises order by name`.execute(db)).rows.map((r) => r.id);
  const users = Array.from({ length: 50 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
  const shares = [0.8, 0.05, 0.05, 0.05, 0.05];
  const CHUNK = 500_000;
  for (const [e, id] of ids.entries()) {
    const count = Math.round(ROWS * shares[e]);
    const step = (7 * 365 * 86_400) / count; // seconds between entries: seven years
    for (let from = 1; from <= count; from += CHUNK) {
      const to = Math.min(count, from + CHUNK - 1);
      await sql`
        insert into audit_log (id, enterprise_id, chain_seq, user_id, user_email, user_name, action_type, entity_type,
          entity_id, action_details, ip_address, user_agent, status, created_at, prev_hash, hash)
        select gen_random_uuid(), ${id}, g, (${users}::uuid[])[1 + (g * 7) % 50], 'user@example.test', 'Bench User',
          (array['update','update','update','create','create','login','logout','approve','cancel','delete','access_denied'])[1 + g % 11],
          (array['bra','bra','bra_rating','control','mitigation_action','legal_entity','user','risk_appetite'])[1 + (g / 3) % 8],
          gen_random_uuid(), '{"operation":"bench"}', '198.51.100.7', 'bench', 'success',
          timestamptz '2019-01-01' + (g * ${step}::float8) * interval '1 second', repeat('0', 64), repeat('0', 64)
        from generate_series(${from}::bigint, ${to}::bigint) g`.execute(db);
      log(`  enterprise ${e}: ${to.toLocaleString('en')} / ${count.toLocaleString('en')}`);
    }
    await sql`insert into audit_chain_heads (chain_key, last_seq, last_hash, last_created_at)
      values (${id}, ${count}, repeat('0', 64), timestamptz '2019-01-01' + (${count}::bigint * ${step}::float8) * interval '1 second')`.execute(db);
  }
  log(`generated ${ROWS.toLocaleString('en')} entries in ${Math.round((Date.now() - started) / 1000)} s`);
  await sql`vacuum analyze audit_log`.execute(db);
}
const big = (await sql`select id from enterprises order by name limit 1`.execute(db)).rows[0].id;
const bigCount = Math.round(ROWS * 0.8);
const size = (await sql`select pg_size_pretty(pg_total_relation_size('audit_log')) as s`.execute(db)).rows[0].s;
log(`\naudit_log: ${ROWS.toLocaleString('en')} entries (${size} with indexes); the searched enterprise holds ${bigCount.toLocaleString('en')}\n`);

/** Runs fn three times (warm cache), reports the best time; and the plan of the query it names. */
async function measure(label, fn, planned) {
  let best = Infinity;
  let result;
  for (let i = 0; i < 3; i += 1) {
    const t = process.hrtime.bigint();
    result = await fn();
    best = Math.min(best, Number(process.hrtime.bigint() - t) / 1e6);
  }
  log(`${label.padEnd(62)} ${best.toFixed(1).padStart(8)} ms   ${summary(result)}`);
  if (planned && process.env.AUDIT_BENCH_PLANS) {
    const plan = await planned.explain('text', sql`analyze, buffers`);
    log(plan.map((row) => `      ${row['QUERY PLAN']}`).join('\n'));
  }
  return result;
}
const summary = (r) => (Array.isArray(r) ? `${r.length} rows` : typeof r === 'object' ? JSON.stringify(r) : String(r));

const full = await measure('date range → chain range (whole trail)', () => chainRange(db, big, null, null));
const month = await measure('date range → chain range (one month, 2023-06)', () =>
  chainRange(db, big, new Date('2023-06-01T00:00:00Z'), new Date('2023-07-01T00:00:00Z')));
const page = (range, n, size = 25) => {
  const top = range.to - (n - 1) * size;
  return pageOfRange(db, big, Math.max(range.from, top - size + 1), top);
};
await measure('unfiltered page 1 (total exact: width of the range)', () => page(full, 1));
await measure(`unfiltered page ${Math.floor(bigCount / 25 / 2).toLocaleString('en')} (middle of the trail)`, () => page(full, Math.floor(bigCount / 25 / 2)));
await measure('unfiltered last page', () => page(full, Math.ceil(bigCount / 25)));
await measure('one month, page 1', () => page(month, 1));
await measure('one month, last page', () => page(month, Math.ceil((month.to - month.from + 1) / 25)));
const range = { from: full.from, to: full.to };
for (const [label, filters] of [
  ['action_type=approve', { action_type: 'approve' }],
  ['user_id=…', { user_id: '00000000-0000-4000-8000-000000000007' }],
  ['entity_type=risk_appetite&action_type=delete', { entity_type: 'risk_appetite', action_type: 'delete' }],
]) {
  await measure(`${label}: count up to 10,001`, () => countMatchingUpTo(db, big, range, filters, 10_000));
  await measure(`${label}: planner estimate`, () => estimateMatching(db, big, range, filters));
  for (const offset of [0, 2_500, 100_000, 1_000_000]) {
    await measure(`${label}: page at offset ${offset.toLocaleString('en')}`, () => pageOfMatching(db, big, range, filters, 26, offset));
  }
}
const monthRange = { from: month.from, to: month.to };
await measure('one month & action_type=approve: count up to 10,001', () => countMatchingUpTo(db, big, monthRange, { action_type: 'approve' }, 10_000));
await measure('one month & action_type=approve: page 1', () => pageOfMatching(db, big, monthRange, { action_type: 'approve' }, 26, 0));
await database.close();
