/**
 * Times the effectiveness summary and heat-map queries on a large control library.
 * `BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/experiments/controls-effectiveness.ts`
 * creates a scratch database on that server (dropped afterwards), fills one enterprise with 50,000
 * sub-controls (about a third unassessed), 1,000 BRAs of one legal entity and 25,000 control links, and
 * prints the median of 7 runs of each query, whole library and entity-scoped.
 *
 * Nothing here comes from bench/support.mjs: no service runs; the repository's queries are timed on the
 * database directly.
 */
import pg from 'pg';
import { sql } from 'kysely';
import { countByEffectiveness, countByTodAndToe } from '../../src/modules/controls/effectiveness/effectiveness.repository.js';
import { openDatabase } from '../../src/platform/db/engine.js';
import { migrateToLatest } from '../../src/platform/db/migrator.js';

const serverUrl = process.env['BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `controls_bench_${Date.now()}`;
const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
await admin.query(`create database ${name}`);
const url = new URL(serverUrl);
url.pathname = `/${name}`;
const database = await openDatabase({ kind: 'postgres', url: url.toString() }, { poolSize: 2 });
try {
  await migrateToLatest(database);
  const { db } = database;
  const { id: e } = await db.insertInto('enterprises').values({ name: 'Bench', country: 'GB' }).returning('id').executeTakeFirstOrThrow();
  const { id: le } = await db.insertInto('legal_entities').values({ enterprise_id: e, name: 'LE' }).returning('id').executeTakeFirstOrThrow();
  await sql`insert into key_controls (enterprise_id, name) select ${e}, 'kc ' || g from generate_series(1, 500) g`.execute(db);
  await sql`insert into sub_controls (enterprise_id, key_control_id, name, tod, toe, total_effectiveness)
    select ${e}, kc.id, 'sc ' || g, t.tod, t.toe, case when t.tod is not null and t.toe is not null then 'Effective' end
    from generate_series(1, 50000) g
    cross join lateral (select id from key_controls where enterprise_id = ${e} offset (g % 500) limit 1) kc
    cross join lateral (select case when random() < 0.8 then chr(65 + (random() * 4)::int) end as tod,
                               case when random() < 0.8 then ((random() * 4)::int + 1)::text end as toe, g as gg) t`.execute(db);
  await sql`insert into bras (enterprise_id, name, legal_entity_id, period, assessor)
    select ${e}, 'bra ' || g, ${le}, '2026', 'bench' from generate_series(1, 1000) g`.execute(db);
  await sql`insert into bra_controls (enterprise_id, bra_id, sub_control_id)
    select ${e}, b.id, s.id from (select id, row_number() over () rn from bras) b
    join (select id, row_number() over () rn from sub_controls) s on s.rn % 1000 = b.rn % 1000 and s.rn % 2 = 0`.execute(db);
  await sql`analyze`.execute(db);

  const time = async (label: string, run: () => Promise<unknown>) => {
    const runs: number[] = [];
    for (let i = 0; i < 7; i += 1) {
      const started = performance.now();
      await run();
      runs.push(performance.now() - started);
    }
    runs.sort((a, b) => a - b);
    console.log(`${label}: median ${runs[3]!.toFixed(1)} ms, max ${runs[6]!.toFixed(1)} ms`);
  };
  const whole = { bras: sql<boolean>`true`, includeArchived: false };
  const scoped = { legalEntityId: le, bras: sql<boolean>`true`, includeArchived: false };
  await time('summary, whole library', () => countByEffectiveness(db, e, whole));
  await time('heat map, whole library', () => countByTodAndToe(db, e, whole));
  await time('summary, entity scope', () => countByEffectiveness(db, e, scoped));
  await time('heat map, entity scope', () => countByTodAndToe(db, e, scoped));
} finally {
  await database.close();
  await admin.query(`drop database ${name}`);
  await admin.end();
}
