// The benchmark's data: enterprises, their organisation, users, BRAs with scenarios and ratings, controls,
// actions, risk appetites and years of audit trail, generated in SQL (generate_series) through the service's
// schema and its constraints, skewed as in life (a few big tenants hold most rows).
//
//   npm run bench:data -- --scale tiny|small|medium|large [--database-url postgres://…/bench_medium] [--keep]
//   npm run bench:data -- --scale small --embedded /var/tmp/bench-embedded      (the embedded engine: a DATA_DIR)
//
// Without --database-url (or DATABASE_URL) the target is a fresh database `bench_<scale>` on
// postgres://postgres@127.0.0.1:5432, dropped and created by the script; the service's migrator brings it to
// the current schema before any row goes in. Every generated user's password is BENCH_PASSWORD (below), so the
// harness signs in as any of them (`admin-<k>@e<enterprise>.bench.test`, `assessor-<k>@…`, `reviewer-1@…`).
//
// The audit trail goes through a fast path that computes each entry's hash with the service's own function
// (src/platform/audit/hash-chain.ts), chain after chain, in multi-row INSERTs; the chain heads are set as the
// writer leaves them, so the service appends to the generated chains. See bench/README.md.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { entryHash, GENESIS_HASH } from '../src/platform/audit/hash-chain.ts';
import { EFFECTIVENESS_MATRIX } from '../src/modules/controls/effectiveness-matrix.ts';
import { createPasswordHasher } from '../src/modules/identity/passwords.ts';

export const BENCH_PASSWORD = 'bench password 2026';

/** The scales of the issue; `tiny` is the generator's own test. Per scale: totals over all enterprises. */
export const SCALES = {
  tiny: { enterprises: 3, bras: 60, subControls: 120, actions: 240, audit: 3_000, bigUsers: 3 },
  small: { enterprises: 10, bras: 2_000, subControls: 5_000, actions: 8_000, audit: 100_000, bigUsers: 16 },
  medium: { enterprises: 200, bras: 50_000, subControls: 1_000_000, actions: 200_000, audit: 5_000_000, bigUsers: 32 },
  large: { enterprises: 2_000, bras: 500_000, subControls: 10_000_000, actions: 2_000_000, audit: 50_000_000, bigUsers: 32 },
};
/** Per BRA: 10 scenarios, each with its inherent and residual rating (20 ratings) and one control link. */
export const SCENARIOS_PER_BRA = 10;
const LIBRARY_SCENARIOS = 60;
const UNITS_PER_ENTITY = 3;
/** About six yearly BRAs per place (an entity itself or one of its units): six years of history. */
const BRAS_PER_PLACE = 6;
/** Zipf exponent of the tenants' sizes: at 200 enterprises the biggest holds about a quarter of every table. */
const SKEW = 1.1;
const CATEGORIES = ['Internal fraud', 'External fraud', 'Employment practices', 'Clients and products', 'Physical assets', 'Business disruption', 'Execution and delivery'];

/**
 * How many rows of each kind each enterprise gets: shares proportional to 1/rank^SKEW, rounded so that the
 * totals are exact (largest remainders), with a floor so that the smallest tenant still has a little of each.
 */
export function planOf(scale) {
  const spec = SCALES[scale];
  if (spec === undefined) throw new Error(`unknown scale ${scale}: ${Object.keys(SCALES).join(', ')}`);
  const weights = Array.from({ length: spec.enterprises }, (_, i) => 1 / (i + 1) ** SKEW);
  const total = weights.reduce((a, b) => a + b, 0);
  const split = (sum, floor) => {
    const spare = sum - floor * weights.length;
    const exact = weights.map((w) => (spare * w) / total);
    const counts = exact.map(Math.floor);
    let left = spare - counts.reduce((a, b) => a + b, 0);
    const order = exact.map((x, i) => [x - Math.floor(x), i]).sort((a, b) => b[0] - a[0]);
    for (let k = 0; left > 0; k += 1, left -= 1) counts[order[k % order.length][1]] += 1;
    return counts.map((c) => c + floor);
  };
  const bras = split(spec.bras, 6);
  const subControls = split(spec.subControls, SCENARIOS_PER_BRA);
  const actions = split(spec.actions, 1);
  const audit = split(spec.audit, 10);
  return weights.map((_, i) => ({
    idx: i + 1,
    bras: bras[i],
    entities: Math.max(1, Math.ceil(bras[i] / BRAS_PER_PLACE / (UNITS_PER_ENTITY + 1))),
    subControls: subControls[i],
    actions: actions[i],
    audit: audit[i],
    // The three biggest tenants get many users (the harness spreads its load over their tokens).
    admins: i < 3 ? spec.bigUsers : 2,
    assessors: i < 3 ? spec.bigUsers : 2,
  }));
}

/** The effectiveness matrix as SQL rows (the service's own table, src/modules/controls/effectiveness-matrix.ts). */
const matrixValues = () =>
  Object.entries(EFFECTIVENESS_MATRIX)
    .flatMap(([tod, row]) => Object.entries(row).map(([toe, label]) => `('${tod}', '${toe}', '${label}')`))
    .join(', ');

/** A deterministic pseudo-random integer in [0, n) of a few SQL expressions: reproducible data. */
const rnd = (n, ...parts) => `(abs(hashtext(${parts.join(" || '/' || ")}))::bigint % ${n})`;

/**
 * Fills a migrated, empty database. `url`: a role that owns the tables (the generator switches the parents'
 * row-version triggers off for the bulk load and on again). Returns the counts and timings.
 */
export async function generate(url, scale, { log = () => undefined } = {}) {
  const plan = planOf(scale);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const timings = [];
  const step = async (label, statement, params) => {
    const started = Date.now();
    const result = await client.query(statement, params);
    timings.push([label, Date.now() - started]);
    log(`  ${label}: ${result.rowCount ?? ''} rows in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return result;
  };
  try {
    const passwordHash = await createPasswordHasher().hash(BENCH_PASSWORD);
    await client.query('set synchronous_commit = off');
    // Child rows of a BRA bump its row_version through a row trigger: a million updates of 50,000 rows at
    // this scale, with nothing to tell (the BRAs are new). User triggers only; constraints stay on.
    const bumped = ['bra_risk_scenarios', 'bra_ratings', 'bra_controls'];
    for (const table of bumped) await client.query(`alter table ${table} disable trigger user`);

    await step('enterprises', `insert into enterprises (name, country, registration_number, status, subscription_tier, created_at, updated_at)
      select 'Bench Enterprise ' || lpad(g::text, 5, '0'), (array['GB','DE','FR','NL','US','IE','LU'])[1 + g % 7], 'BE' || (100000 + g),
             'active', case when g <= 5 then 'enterprise' when g % 3 = 0 then 'professional' else 'starter' end,
             timestamptz '2020-01-01' + g * interval '1 hour', timestamptz '2020-01-01' + g * interval '1 hour'
        from generate_series(1, $1::int) g`, [plan.length]);
    await client.query(`create temp table plan on commit preserve rows as
      select e.id as enterprise_id, p.* from unnest($1::int[], $2::int[], $3::int[], $4::int[], $5::int[], $6::int[], $7::int[])
          as p(idx, bras, entities, sub_controls, actions, admins, assessors)
        join enterprises e on e.name = 'Bench Enterprise ' || lpad(p.idx::text, 5, '0')`,
    ['idx', 'bras', 'entities', 'subControls', 'actions', 'admins', 'assessors'].map((key) => plan.map((row) => row[key])));

    const ids = new Map((await client.query('select idx, enterprise_id from plan')).rows.map((row) => [row.idx, row.enterprise_id]));
    for (const tenant of plan) tenant.enterprise_id = ids.get(tenant.idx);

    // ---- people -------------------------------------------------------------------------------------
    await client.query(`create temp table people on commit preserve rows as
      select gen_random_uuid() as id, p.enterprise_id, p.idx, r.role, k,
             r.role || '-' || k || '@e' || p.idx || '.bench.test' as email,
             initcap(r.role) || ' ' || k || ' of enterprise ' || p.idx as full_name
        from plan p
        cross join lateral (values ('admin', p.admins), ('assessor', p.assessors), ('reviewer', 1)) as r(role, n)
        cross join lateral generate_series(1, r.n) k`);
    await step('users', `insert into users (id, email, full_name, password_hash, created_at, updated_at)
      select id, email, full_name, $1, timestamptz '2020-02-01', timestamptz '2020-02-01' from people`, [passwordHash]);
    await step('enterprise members', `insert into enterprise_members (enterprise_id, user_id, role, created_at)
      select enterprise_id, id, role, timestamptz '2020-02-01' from people`);

    // ---- organisation: legal entities, three business units each; a "place" is an entity or a unit ----
    await client.query(`create temp table entity_plan on commit preserve rows as
      select gen_random_uuid() as id, p.enterprise_id, e as n from plan p, generate_series(1, p.entities) e`);
    await step('legal entities', `insert into legal_entities (id, enterprise_id, name, created_at, updated_at)
      select id, enterprise_id, 'Entity ' || lpad(n::text, 4, '0'), timestamptz '2020-03-01', timestamptz '2020-03-01' from entity_plan`);
    await client.query(`create temp table unit_plan on commit preserve rows as
      select gen_random_uuid() as id, le.enterprise_id, le.id as legal_entity_id, le.n as entity_n, u as n
        from entity_plan le, generate_series(1, ${UNITS_PER_ENTITY}) u`);
    await step('business units', `insert into business_units (id, enterprise_id, legal_entity_id, name, created_at, updated_at)
      select id, enterprise_id, legal_entity_id, 'Unit ' || n, timestamptz '2020-03-01', timestamptz '2020-03-01' from unit_plan`);
    await client.query(`create temp table places on commit preserve rows as
      select enterprise_id, legal_entity_id, business_unit_id,
             row_number() over (partition by enterprise_id order by entity_n, unit_n) as n,
             count(*) over (partition by enterprise_id) as of_places
        from (select enterprise_id, id as legal_entity_id, null::uuid as business_unit_id, n as entity_n, 0 as unit_n from entity_plan
              union all select enterprise_id, legal_entity_id, id, entity_n, n from unit_plan) x`);
    await client.query('create index on places (enterprise_id, n)');
    // Assessors: each assigned to one entity (all its units); reviewers and admins see the whole enterprise.
    await step('entity roles', `insert into entity_roles (enterprise_id, user_id, legal_entity_id, business_unit_id, created_at)
      select u.enterprise_id, u.id, le.id, null, timestamptz '2020-03-02'
        from people u join plan p on p.enterprise_id = u.enterprise_id
        join entity_plan le on le.enterprise_id = u.enterprise_id and le.n = 1 + (u.k - 1) % p.entities
       where u.role = 'assessor'`);
    await step('risk appetites', `insert into risk_appetites (enterprise_id, legal_entity_id, business_unit_id, risk_level, threshold_value, description)
      select enterprise_id, null::uuid, null::uuid, 'High', 12, 'Group appetite' from plan
      union all select enterprise_id, id, null::uuid, 'Medium', 9, 'Entity appetite' from entity_plan where n % 5 = 0`);

    // ---- the scenario library and the BRAs ----------------------------------------------------------------
    await client.query(`create temp table library on commit preserve rows as
      select gen_random_uuid() as id, p.enterprise_id, s as n from plan p, generate_series(1, ${LIBRARY_SCENARIOS}) s`);
    await step('risk scenarios', `insert into risk_scenarios (id, enterprise_id, name, category, description, created_at, updated_at)
      select id, enterprise_id, 'Scenario ' || lpad(n::text, 3, '0'), ($1::text[])[1 + n % ${CATEGORIES.length}],
             'A risk the enterprise assesses every year', timestamptz '2020-04-01', timestamptz '2020-04-01' from library`, [CATEGORIES]);
    // BRA n of an enterprise sits at place 1 + (n - 1) % places, its k-th (0-based) there; the newest of a
    // place is live (mostly in progress, some draft or under review), the older ones approved, 3 % cancelled.
    await client.query(`create temp table bra_plan on commit preserve rows as
      select gen_random_uuid() as id, x.*,
             'FY' || (2026 - (x.last_k - x.k)) as period,
             make_timestamptz((2026 - (x.last_k - x.k))::int, 1, 15, 9, 0, 0, 'UTC') + x.n * interval '1 minute' as created_at,
             case when x.k < x.last_k then (case when ${rnd(33, 'x.enterprise_id::text', 'x.n::text')} = 0 then 'cancelled' else 'approved' end)
                  when x.place_n % 10 < 5 then 'in_progress' when x.place_n % 10 < 7 then 'draft'
                  when x.place_n % 10 < 9 then 'under_review' else 'approved' end as status
        from (select p.enterprise_id, p.idx, g.n, pl.n as place_n, (g.n - 1) / pl.of_places as k,
                     (p.bras - pl.n) / pl.of_places as last_k, pl.legal_entity_id, pl.business_unit_id
                from plan p cross join generate_series(1, p.bras) as g(n)
                join places pl on pl.enterprise_id = p.enterprise_id and pl.n = 1 + (g.n - 1) % (p.entities * ${UNITS_PER_ENTITY + 1})) x`);
    await step('BRAs', `insert into bras (id, enterprise_id, name, description, legal_entity_id, business_unit_id, status, period, assessor,
                                  start_date, completion_date, created_by, created_at, updated_at, approved_by, approved_at, final_comment,
                                  cancelled_by, cancelled_at, cancellation_reason)
      select b.id, b.enterprise_id, 'BRA ' || lpad(b.n::text, 6, '0') || ' ' || b.period, 'Yearly business risk assessment', b.legal_entity_id,
             b.business_unit_id, b.status, b.period, a.full_name, b.created_at::date,
             case when b.status = 'approved' then (b.created_at + interval '60 days')::date end, a.id, b.created_at,
             b.created_at + case when b.status in ('approved', 'cancelled') then interval '60 days' else interval '1 day' end,
             case when b.status = 'approved' then r.id end, case when b.status = 'approved' then b.created_at + interval '60 days' end,
             case when b.status = 'approved' then 'Approved by the risk committee' end,
             case when b.status = 'cancelled' then r.id end, case when b.status = 'cancelled' then b.created_at + interval '60 days' end,
             case when b.status = 'cancelled' then 'Superseded by a re-scoped assessment' end
        from bra_plan b
        join people a on a.enterprise_id = b.enterprise_id and a.role = 'assessor' and a.k = 1
        join people r on r.enterprise_id = b.enterprise_id and r.role = 'admin' and r.k = 1`);
    await client.query('create unique index on bra_plan (enterprise_id, n)');

    // ---- scenarios of each BRA, their ratings, controls and actions ---------------------------------------
    await client.query(`create temp table link_plan on commit preserve rows as
      select gen_random_uuid() as id, b.enterprise_id, b.id as bra_id, b.n as bra_n, j, b.created_at,
             l.id as risk_scenario_id, not (j = ${SCENARIOS_PER_BRA - 1} and b.n % 5 = 0) as included
        from bra_plan b cross join generate_series(0, ${SCENARIOS_PER_BRA - 1}) j
        join library l on l.enterprise_id = b.enterprise_id and l.n = 1 + (b.n + 6 * j) % ${LIBRARY_SCENARIOS}`);
    await step('BRA scenarios', `insert into bra_risk_scenarios (id, enterprise_id, bra_id, risk_scenario_id, included, created_at, updated_at)
      select id, enterprise_id, bra_id, risk_scenario_id, included, created_at, created_at from link_plan`);
    await step('ratings (inherent and residual)', `insert into bra_ratings (enterprise_id, bra_id, bra_risk_scenario_id, rating_type, impact_score,
                                  likelihood_score, risk_score, risk_level, justification, created_at)
      select enterprise_id, bra_id, id, t.type, t.i, t.l, t.i * t.l,
             case when t.i * t.l <= 4 then 'Low' when t.i * t.l <= 9 then 'Medium' when t.i * t.l <= 15 then 'High' else 'Very High' end,
             'Scored in the yearly workshop', created_at + interval '10 days'
        from (select l.*, 1 + ${rnd(5, 'l.id::text', "'i'")} as i, 1 + ${rnd(5, 'l.id::text', "'l'")} as li,
                     ${rnd(3, 'l.id::text', "'ri'")} as di, ${rnd(3, 'l.id::text', "'rl'")} as dl from link_plan l) x
        cross join lateral (values ('inherent', x.i, x.li), ('residual', greatest(1, x.i - x.di), greatest(1, x.li - x.dl))) as t(type, i, l)`);
    await client.query(`create temp table key_plan on commit preserve rows as
      select gen_random_uuid() as id, p.enterprise_id, c as n from plan p, generate_series(1, (p.sub_controls + 9) / 10) c`);
    await step('key controls', `insert into key_controls (id, enterprise_id, name, description, created_at, updated_at)
      select id, enterprise_id, 'Key control ' || lpad(n::text, 6, '0'), 'A control of the library', timestamptz '2020-05-01', timestamptz '2020-05-01'
        from key_plan`);
    await client.query(`create temp table sub_plan on commit preserve rows as
      select gen_random_uuid() as id, k.enterprise_id, k.id as key_control_id, (k.n - 1) * 10 + s as n
        from key_plan k join plan p on p.enterprise_id = k.enterprise_id cross join generate_series(1, 10) s
       where (k.n - 1) * 10 + s <= p.sub_controls`);
    // 15 % never tested; the others tested in the last 18 months (a third of them more than 12 months ago).
    await step('sub-controls', `insert into sub_controls (id, enterprise_id, key_control_id, name, description, tod, toe, total_effectiveness,
                                  testing_date, tested_by, created_at, updated_at)
      select s.id, s.enterprise_id, s.key_control_id, 'Sub-control ' || lpad(s.n::text, 7, '0'), 'What is checked and how',
             m.tod, m.toe, m.label, case when m.tod is not null then current_date - ${rnd(540, 's.id::text', "'d'")}::int end,
             case when m.tod is not null then 'Second line' end, timestamptz '2020-05-01', timestamptz '2020-05-01'
        from (select s.*, ${rnd(100, 's.id::text', "'t'")} as t from sub_plan s) s
        left join (values ${matrixValues()}) as m(tod, toe, label)
          on s.t >= 15 and m.tod = (array['A','B','C','D','E'])[1 + s.t % 5] and m.toe = (array['1','2','3','4','5'])[1 + (s.t / 5) % 5]`);
    await client.query('create unique index on sub_plan (enterprise_id, n)');
    await step('control links', `insert into bra_controls (enterprise_id, bra_id, sub_control_id, bra_risk_scenario_id, created_at)
      select l.enterprise_id, l.bra_id, s.id, l.id, l.created_at + interval '5 days'
        from link_plan l join plan p on p.enterprise_id = l.enterprise_id
        join sub_plan s on s.enterprise_id = l.enterprise_id and s.n = 1 + (l.bra_n * ${SCENARIOS_PER_BRA} + l.j) % p.sub_controls`);
    await client.query('create unique index on link_plan (enterprise_id, bra_n, j)');
    // Action a of an enterprise mitigates scenario j = (a - 1) / bras % 10 of BRA 1 + (a - 1) % bras; due
    // within half a year either side of today (those past due and not completed are overdue).
    await step('mitigation actions', `insert into mitigation_actions (enterprise_id, action, owner, status, priority, action_type, due_date,
                                  bra_id, bra_risk_scenario_id, created_at, updated_at)
      select l.enterprise_id, 'Mitigation ' || a, 'Operations lead', (array['created','in_progress','completed'])[1 + ${rnd(3, 'l.id::text', 'a::text', "'s'")}],
             (array['low','medium','high','critical'])[1 + ${rnd(4, 'l.id::text', 'a::text', "'p'")}], 'Process',
             current_date + (${rnd(365, 'l.id::text', 'a::text', "'d'")}::int - 180), l.bra_id, l.id, l.created_at + interval '20 days', l.created_at + interval '20 days'
        from plan p cross join generate_series(1, p.actions) a
        join link_plan l on l.enterprise_id = p.enterprise_id and l.bra_n = 1 + (a - 1) % p.bras and l.j = ((a - 1) / p.bras) % ${SCENARIOS_PER_BRA}`);
    for (const table of bumped) await client.query(`alter table ${table} enable trigger user`);
    // The same switch silenced the triggers that keep the read models (a BRA's residual figures, the register's
    // entries): they are computed once here, from the rows just written, as their migrations' backfills do.
    await step('residual figures', `select refresh_bra_residual_figures(array_agg(enterprise_id), array_agg(id)) from bras where status = 'approved'`);
    await step('register entries', `select refresh_register_entries(array_agg(enterprise_id), array_agg(id)) from bra_risk_scenarios where included`);

    // ---- the audit trail --------------------------------------------------------------------------------
    const started = Date.now();
    let entries = 0;
    // Chains are independent: AUDIT_WORKERS connections take the tenants in turn, biggest first.
    const queue = [...plan];
    await Promise.all(Array.from({ length: AUDIT_WORKERS }, async () => {
      const worker = new pg.Client({ connectionString: url });
      await worker.connect();
      try {
        await worker.query('set synchronous_commit = off');
        for (let tenant = queue.shift(); tenant !== undefined; tenant = queue.shift()) {
          const written = await auditChain(worker, tenant);
          entries += written;
        }
      } finally {
        await worker.end();
      }
    }));
    timings.push(['audit entries', Date.now() - started]);
    log(`  audit entries: ${entries} rows in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    const analysed = Date.now();
    await client.query('analyze');
    log(`  analyze: ${((Date.now() - analysed) / 1000).toFixed(1)} s`);
    const counts = (await client.query(`select
      (select count(*) from enterprises)::int as enterprises, (select count(*) from users)::int as users,
      (select count(*) from bras)::int as bras, (select count(*) from bra_risk_scenarios)::int as scenarios,
      (select count(*) from bra_ratings)::int as ratings, (select count(*) from sub_controls)::int as sub_controls,
      (select count(*) from bra_controls)::int as control_links, (select count(*) from mitigation_actions)::int as actions,
      (select count(*) from audit_log)::int as audit_entries`)).rows[0];
    return { counts, timings, plan };
  } finally {
    await client.end();
  }
}

const AUDIT_BATCH = 5_000;
/** Connections that load audit chains at once (the database's inserts, not the hashing, are the bottleneck). */
const AUDIT_WORKERS = 2;
const AUDIT_COLUMNS = ['id', 'enterprise_id', 'chain_seq', 'user_id', 'user_email', 'user_name', 'action_type', 'entity_type', 'entity_id',
  'action_details', 'ip_address', 'user_agent', 'status', 'created_at', 'prev_hash', 'hash'];
const AUDIT_TYPES = ['uuid', 'uuid', 'int8', 'uuid', 'text', 'text', 'text', 'text', 'uuid', 'jsonb', 'text', 'text', 'text', 'timestamptz', 'text', 'text'];
const AUDIT_INSERT = `insert into audit_log (${AUDIT_COLUMNS.join(', ')})
  select * from unnest(${AUDIT_TYPES.map((type, i) => `$${i + 1}::${type}[]`).join(', ')})`;
/** Six years of trail, ending an hour ago: chain order is time order. */
const TRAIL_FROM = Date.parse('2020-11-27T00:00:00Z');

/**
 * One enterprise's chain: entries as the writer makes them (src/platform/audit/audit-writer.ts), hashed with
 * its function, in chain order, then its head. What happened is a plausible mix: BRA edits, sign-ins, approvals,
 * exports, a few refusals.
 */
async function auditChain(client, tenant) {
  const { rows: users } = await client.query('select u.id, u.email, u.full_name from users u join enterprise_members m on m.user_id = u.id where m.enterprise_id = $1 order by u.email', [tenant.enterprise_id]);
  const { rows: bras } = await client.query('select id, name from bras where enterprise_id = $1 order by name limit 2000', [tenant.enterprise_id]);
  const until = Date.now() - 3_600_000;
  const step = (until - TRAIL_FROM) / tenant.audit;
  let prevHash = GENESIS_HASH;
  let createdAt = null;
  let pending = null;
  for (let from = 1; from <= tenant.audit; from += AUDIT_BATCH) {
    const to = Math.min(tenant.audit, from + AUDIT_BATCH - 1);
    const columns = AUDIT_COLUMNS.map(() => []);
    for (let seq = from; seq <= to; seq += 1) {
      const user = users[seq % users.length];
      const bra = bras[(seq * 7) % bras.length];
      const kind = seq % 50;
      const [action, entityType, entityId, details, status] =
        kind < 10 ? ['login', 'user', user.id, { method: 'password' }, 'success']
          : kind < 12 ? ['logout', 'user', user.id, {}, 'success']
            : kind === 12 ? ['login', 'user', user.id, { method: 'password', reason: 'invalid_credentials' }, 'failed']
              : kind === 13 ? ['access_denied', 'bra', bra.id, { method: 'PATCH', path: '/api/v1/bras/:bra_id' }, 'failed']
                : kind === 14 ? ['export', 'audit_log', null, { format: 'csv', rows: 1000 }, 'success']
                  : kind === 15 ? ['approve', 'bra', bra.id, { name: bra.name, status: { from: 'under_review', to: 'approved' } }, 'success']
                    : kind < 25 ? ['create', 'bra_rating', bra.id, { impact_score: 1 + (seq % 5), likelihood_score: 1 + (seq % 3), rating_type: 'residual' }, 'success']
                      : ['update', 'bra', bra.id, { name: bra.name, changes: { description: { from: 'Draft', to: `Revision ${seq}` } } }, 'success'];
      createdAt = new Date(Math.floor(TRAIL_FROM + (seq - 1) * step));
      const content = {
        id: randomUUID(),
        enterprise_id: tenant.enterprise_id,
        chain_seq: seq,
        user_id: user.id,
        user_email: user.email,
        user_name: user.full_name,
        action_type: action,
        entity_type: entityType,
        entity_id: entityId,
        action_details: details,
        ip_address: `10.${seq % 250}.${(seq >> 8) % 250}.${seq % 7}`,
        user_agent: 'Mozilla/5.0 (bench)',
        status,
        created_at: createdAt.toISOString(),
      };
      const hash = entryHash(prevHash, content);
      const values = [content.id, content.enterprise_id, seq, content.user_id, content.user_email, content.user_name, action, entityType,
        entityId, JSON.stringify(details), content.ip_address, content.user_agent, status, content.created_at, prevHash, hash];
      for (let c = 0; c < values.length; c += 1) columns[c].push(values[c]);
      prevHash = hash;
    }
    // The next batch is hashed while this one goes in.
    await pending;
    pending = client.query(AUDIT_INSERT, columns);
  }
  await pending;
  await client.query(`insert into audit_chain_heads (chain_key, last_seq, last_hash, last_created_at) values ($1, $2, $3, $4)`,
    [tenant.enterprise_id, tenant.audit, prevHash, createdAt]);
  return tenant.audit;
}

// ---- the command ----------------------------------------------------------------------------------------

/** Creates (drops first) database `name` on the server of `serverUrl` (a superuser URL). */
export async function freshServerDatabase(serverUrl, name) {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
}

/** Migrates with the service's migrator; returns the owner URL the rows go in through, and a closer. */
export async function migrated(target) {
  const { openDatabase } = await import('../src/platform/db/engine.ts');
  const { setUpSchema } = await import('../src/platform/db/schema-setup.ts');
  const database = await openDatabase(target, { poolSize: 2 });
  await setUpSchema({ migrationDatabaseUrl: null }, database);
  return { ownerUrl: database.ownerUrl ?? target.url, close: () => database.close() };
}

async function main() {
  const { options } = await import('./support.mjs');
  const option = options();
  const scale = option('scale', 'small');
  const embeddedDir = option('embedded', null);
  const log = (line) => console.log(line);
  let target;
  if (embeddedDir) {
    const { mkdirSync, rmSync, chmodSync } = await import('node:fs');
    rmSync(embeddedDir, { recursive: true, force: true });
    mkdirSync(embeddedDir, { recursive: true });
    chmodSync(embeddedDir, 0o755);
    target = { kind: 'embedded-dir', dataDir: embeddedDir };
  } else {
    const given = option('database-url', process.env.DATABASE_URL ?? null);
    const url = given ?? `postgres://postgres@127.0.0.1:5432/bench_${scale}`;
    const parsed = new URL(url);
    const name = parsed.pathname.slice(1);
    if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`database name ${name}: letters, digits and _ only`);
    parsed.pathname = '/postgres';
    await freshServerDatabase(parsed.toString(), name);
    target = { kind: 'postgres', url };
  }
  const started = Date.now();
  const { ownerUrl, close } = await migrated(target);
  log(`scale ${scale} into ${embeddedDir ? `the embedded engine in ${embeddedDir}` : target.url} (migrated in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  try {
    const { counts } = await generate(ownerUrl, scale, { log });
    log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s: ${JSON.stringify(counts)}`);
    log(`users: admin-<k>@e<n>.bench.test, assessor-<k>@e<n>.bench.test, reviewer-1@e<n>.bench.test; password "${BENCH_PASSWORD}"`);
  } finally {
    await close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
