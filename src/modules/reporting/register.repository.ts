import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Executor } from '../../platform/db/schema.js';
import type { RiskLevel } from '../../platform/db/tables/governance.js';
import type { RegisterEntriesTable } from '../../platform/db/tables/bras.js';
import { approvedBraSql, liveBraSql } from '../bras/bras.lifecycle.js';
import { EFFECTIVENESS_LABELS } from '../controls/effectiveness-matrix.js';
import { aboveAppetiteSql, applicableAppetite, braPlace } from '../governance/appetite-rules.js';
import { acceptanceInForceJoin } from '../bras/acceptance/acceptance-rules.js';

/**
 * The risk register in SQL: one row per included scenario of the newest approved BRA of each legal entity
 * and business unit the caller sees (and, when asked, of every live BRA), with its current ratings, the
 * applicable appetite (D6.9), the acceptance in force, the weakest effectiveness of its linked controls, and
 * its open and overdue actions. One statement, whatever the number of BRAs, scenarios, controls or actions.
 * A row's scenario and current ratings come from register_entries (migration 20261206100000), which the
 * database keeps for every included link of every BRA in the writer's transaction: the statement joins the
 * chosen BRAs to their entries by BRA instead of joining each link to its scenario and two rating lookups at
 * each request. What is read at request time stays there: the places' names, the appetite (once per BRA,
 * or per row of a page), the acceptance in force (it turns with the calendar), control effectiveness and
 * actions; the figures no filter needs are computed for the page's rows only, after the sort.
 */

export interface RegisterFilter {
  legal_entity_id?: string | undefined;
  business_unit_id?: string | undefined;
  category?: string | undefined;
  risk_level?: RiskLevel | undefined;
  above_appetite?: boolean | undefined;
  /** Above appetite and accepted (true), or above appetite without an acceptance in force (false). */
  accepted?: boolean | undefined;
  include_live?: boolean | undefined;
  inherent_impact?: number | undefined;
  inherent_likelihood?: number | undefined;
  residual_impact?: number | undefined;
  residual_likelihood?: number | undefined;
}

export type RegisterSort = 'residual_score' | 'name';

export interface RegisterQuery {
  enterpriseId: string;
  /** The caller's BRAs, a predicate over `b` (reporting.policy.ts registerScope). */
  scope: Expression<SqlBool>;
  filter: RegisterFilter;
  /** 'YYYY-MM-DD', UTC: what "overdue" is measured against (D7.3). */
  today: string;
}

/** A row of the register: its entry's own columns (register_entries, but the tenant) and the BRA's, the place's and the figures read at request time. */
export interface RegisterRow extends Omit<RegisterEntriesTable, 'enterprise_id'> {
  legal_entity_id: string;
  legal_entity_name: string;
  business_unit_id: string | null;
  business_unit_name: string | null;
  bra_name: string;
  bra_period: string;
  bra_assessor: string;
  bra_status: string;
  bra_approved_at: Date | null;
  live: boolean;
  appetite_threshold: number | null;
  appetite_level: RiskLevel | null;
  above_appetite: boolean;
  /** The acceptance in force today and its last day (issue 48); null when none. */
  acceptance_id: string | null;
  accepted_until: string | null;
  control_effectiveness: string | null;
  open_actions: number;
  overdue_actions: number;
  /** How many rows the filters select (a window count over the whole register, before the page's limit). */
  matching: string | number;
}

const EFFECTIVENESS_ORDER = sql`array[${sql.join(EFFECTIVENESS_LABELS.map((label) => sql.lit(label)))}]::text[]`;

function placeFilter(filter: RegisterFilter): RawBuilder<SqlBool> {
  const clauses: RawBuilder<SqlBool>[] = [sql<SqlBool>`true`];
  if (filter.legal_entity_id !== undefined) clauses.push(sql<SqlBool>`b.legal_entity_id = ${filter.legal_entity_id}`);
  if (filter.business_unit_id !== undefined) clauses.push(sql<SqlBool>`b.business_unit_id = ${filter.business_unit_id}`);
  return sql<SqlBool>`${sql.join(clauses, sql` and `)}`;
}

/** The filters on a row's computed figures, over the `register` CTE. */
function rowFilter(filter: RegisterFilter): RawBuilder<SqlBool> {
  const clauses: RawBuilder<SqlBool>[] = [sql<SqlBool>`true`];
  if (filter.category !== undefined) clauses.push(sql<SqlBool>`category = ${filter.category}`);
  if (filter.risk_level !== undefined) clauses.push(sql<SqlBool>`residual_level = ${filter.risk_level}`);
  if (filter.above_appetite !== undefined) clauses.push(sql<SqlBool>`above_appetite = ${filter.above_appetite}`);
  if (filter.accepted !== undefined) clauses.push(sql<SqlBool>`above_appetite and (acceptance_id is not null) = ${filter.accepted}`);
  for (const column of ['inherent_impact', 'inherent_likelihood', 'residual_impact', 'residual_likelihood'] as const) {
    const value = filter[column];
    if (value !== undefined) clauses.push(sql<SqlBool>`${sql.ref(column)} = ${value}`);
  }
  return sql<SqlBool>`${sql.join(clauses, sql` and `)}`;
}

/**
 * `chosen`: the BRAs whose scenarios the register holds (the newest approved one per place, and the live
 * ones), with their place. With `appetite`, each one's applicable appetite (D6.9) as `appetite_threshold` and
 * `appetite_level`, looked up once per BRA: the CTE is materialized, so that the planner cannot move the
 * lookup after the join to the BRA's entries (once per row).
 */
function chosenCte({ enterpriseId, scope, filter }: RegisterQuery, appetite = false): RawBuilder<unknown> {
  const places = placeFilter(filter);
  const columns = sql`b.id, b.enterprise_id, b.legal_entity_id, b.business_unit_id`;
  const live =
    filter.include_live === true
      ? sql`union all
        select ${columns}, true as live from bras b
        where b.enterprise_id = ${enterpriseId} and ${liveBraSql('b')} and ${scope} and ${places}`
      : sql``;
  const bras = sql`(select distinct on (b.legal_entity_id, b.business_unit_id) ${columns}, false as live
     from bras b
    where b.enterprise_id = ${enterpriseId} and ${approvedBraSql('b')} and ${scope} and ${places}
    order by b.legal_entity_id, b.business_unit_id, b.approved_at desc, b.id desc)
  ${live}`;
  if (!appetite) return sql`chosen as (${bras})`;
  return sql`chosen as materialized (
  select c.*, ap.appetite_threshold, ap.appetite_level
    from (${bras}) c
    left join lateral ${applicableAppetite(braPlace('c'), APPETITE_COLUMNS)} ap on true
)`;
}

const APPETITE_COLUMNS = sql`ra.threshold_value as appetite_threshold, ra.risk_level as appetite_level`;

/** The applicable appetite of BRA `b` (D6.9, governance's appetite-rules.ts), as `ap`: for a page's rows. */
const APPETITE = sql`left join lateral ${applicableAppetite(braPlace('b'), APPETITE_COLUMNS)} ap on true`;

/** Whether the residual score of entry `entry` is above the appetite `appetite` carries (none: false). */
const aboveAppetite = (entry: string, appetite: string) =>
  sql`coalesce(${aboveAppetiteSql(`${entry}.residual_score`, `${appetite}.appetite_threshold`)}, false) as above_appetite`;

/**
 * The BRA's register entries (migration 20261206100000: kept by the database), as `e`, over `chosen` as `c`:
 * read BRA by BRA through register_entries_bra_idx (`offset 0` keeps the subquery a lookup per BRA). Left to
 * itself the planner hashed every entry of the tenant, every BRA's and not only the chosen ones': 7,154 rows
 * for 1,224 at bench_small's biggest tenant, and twice the page's execution time (bench/README.md).
 */
const entries = (enterpriseId: string) => sql`cross join lateral (select * from register_entries e where e.enterprise_id = ${enterpriseId} and e.bra_id = c.id offset 0) e`;

/**
 * The acceptance in force today of entry `entry` (acceptance-rules.ts), as `acc`: a lookup per row, as the
 * entries are read per BRA (`entries`), where the planner no longer sees the tenant's id on the entry and
 * could otherwise join every tenant's acceptances.
 */
const acceptance = (today: string, entry = 'e') => acceptanceInForceJoin(entry, today, 'acc', 'scenario_link_id', true);
const ACCEPTANCE_COLUMNS = sql`acc.id as acceptance_id, acc.expires_on as accepted_until`;

/** An entry's own columns (register_entries), of the row `entry`. */
const ENTRY_COLUMNS = ['scenario_link_id', 'risk_scenario_id', 'scenario_name', 'category', 'inherent_impact', 'inherent_likelihood', 'inherent_score',
  'inherent_level', 'residual_impact', 'residual_likelihood', 'residual_score', 'residual_level'] as const satisfies ReadonlyArray<keyof RegisterEntriesTable>;
const entryColumns = (entry: string) => sql.join(ENTRY_COLUMNS.map((name) => sql.ref(`${entry}.${name}`)));

/** The register's columns, over `c` (chosen), `b`, `le`, `bu`, the entry `entry`, the appetite `appetite` and `acc`. */
const registerColumns = (entry: string, appetite: string) => sql`le.id as legal_entity_id, le.name as legal_entity_name,
         bu.id as business_unit_id, bu.name as business_unit_name,
         b.id as bra_id, b.name as bra_name, b.period as bra_period, b.assessor as bra_assessor, b.status as bra_status, b.approved_at as bra_approved_at,
         c.live, ${entryColumns(entry)},
         ${sql.ref(`${appetite}.appetite_threshold`)}, ${sql.ref(`${appetite}.appetite_level`)},
         ${aboveAppetite(entry, appetite)}, ${ACCEPTANCE_COLUMNS}`;

/** `with chosen as (…), register as (…)`: every column of the register's rows (the export). */
export function registerCte(query: RegisterQuery): RawBuilder<unknown> {
  const { enterpriseId } = query;
  return sql`
with ${chosenCte(query, true)},
register as (
  select ${registerColumns('e', 'c')}
    from chosen c
    join bras b on b.enterprise_id = ${enterpriseId} and b.id = c.id
    join legal_entities le on le.enterprise_id = c.enterprise_id and le.id = c.legal_entity_id
    left join business_units bu on bu.enterprise_id = c.enterprise_id and bu.id = c.business_unit_id
    ${entries(enterpriseId)}
    ${acceptance(query.today)}
)`;
}

/**
 * `with chosen as (…), register as (…)` for the dashboard: the register's rows with only the figures its
 * aggregates read (the current ratings, whether the residual one is above the appetite, the acceptance in
 * force) and the keys its list of acceptances names; the rows are the same.
 */
export function registerFiguresCte(query: RegisterQuery): RawBuilder<unknown> {
  const { enterpriseId } = query;
  return sql`
with ${chosenCte(query, true)},
register as (
  select e.inherent_impact, e.inherent_likelihood, e.inherent_score,
         e.residual_impact, e.residual_likelihood, e.residual_score,
         ${aboveAppetite('e', 'c')}, ${ACCEPTANCE_COLUMNS}, e.bra_id, e.scenario_link_id, e.scenario_name
    from chosen c
    ${entries(enterpriseId)}
    ${acceptance(query.today)}
)`;
}

/**
 * `with chosen as (…), keys as (…)`: the register's rows with what the sort and the filters read (an entry's
 * own columns; the legal entity's name for the sort by name; the appetite and the acceptance only when a
 * filter asks for them), so that a page sorts and counts them and reads the rest for its own rows only.
 */
function registerKeysCte(query: RegisterQuery, sort?: RegisterSort): RawBuilder<unknown> {
  const { enterpriseId, filter } = query;
  const accepted = filter.accepted !== undefined;
  const appetite = filter.above_appetite !== undefined || accepted;
  const byName = sort === 'name';
  return sql`
with ${chosenCte(query, appetite)},
keys as (
  select e.enterprise_id, e.bra_id, c.live, ${entryColumns('e')}
         ${byName ? sql`, le.name as legal_entity_name` : sql``}
         ${appetite ? sql`, ${aboveAppetite('e', 'c')}` : sql``}
         ${accepted ? sql`, acc.id as acceptance_id` : sql``}
    from chosen c
    ${entries(enterpriseId)}
    ${byName ? sql`join legal_entities le on le.enterprise_id = c.enterprise_id and le.id = c.legal_entity_id` : sql``}
    ${accepted ? acceptance(query.today) : sql``}
)`;
}

const ORDER: Record<RegisterSort, RawBuilder<unknown>> = {
  residual_score: sql`residual_score desc nulls last, scenario_name, scenario_link_id`,
  name: sql`scenario_name, legal_entity_name, scenario_link_id`,
};

/**
 * The rows in order, a page of them when asked, each with the figures no filter needs (the weakest control
 * effectiveness, the open and overdue actions), computed only for the rows returned.
 */
export function registerRowsQuery(query: RegisterQuery, sort: RegisterSort, page?: { limit: number; offset: number }): RawBuilder<RegisterRow> {
  const paging = page === undefined ? sql`` : sql`limit ${page.limit} offset ${page.offset}`;
  const extras = rowExtras(query);
  return sql<RegisterRow>`${registerCte(query)},
selected as (select *, count(*) over () as matching from register where ${rowFilter(query.filter)} order by ${ORDER[sort]} ${paging})
select selected.*, ${extras.columns}
  from selected
  ${extras.joins}
 order by ${ORDER[sort]}`;
}

/** The figures no filter needs, over `selected`: the weakest control effectiveness, the open and overdue actions. */
function rowExtras(query: RegisterQuery): { columns: RawBuilder<unknown>; joins: RawBuilder<unknown> } {
  return {
    columns: sql`(${EFFECTIVENESS_ORDER})[eff.weakest] as control_effectiveness,
       coalesce(act.open_actions, 0)::int as open_actions,
       coalesce(act.overdue_actions, 0)::int as overdue_actions`,
    joins: sql`left join lateral (
    select max(array_position(${EFFECTIVENESS_ORDER}, sc.total_effectiveness::text)) as weakest
      from bra_controls bc
      join sub_controls sc on sc.enterprise_id = bc.enterprise_id and sc.id = bc.sub_control_id
     where bc.enterprise_id = ${query.enterpriseId} and bc.bra_risk_scenario_id = selected.scenario_link_id
       and sc.total_effectiveness is not null
  ) eff on true
  left join lateral (
    select count(*) as open_actions, count(*) filter (where a.due_date < ${query.today}::date) as overdue_actions
      from mitigation_actions a
     where a.enterprise_id = ${query.enterpriseId} and a.bra_risk_scenario_id = selected.scenario_link_id
       and not a.archived and a.status <> 'completed'
  ) act on true`,
  };
}

/**
 * One page of the register and the number of matching rows (`matching`, a window count taken before the
 * limit): the sort and the count read the entries and the filtered figures; the BRA's and places' names,
 * the appetite, the acceptance, control effectiveness and actions are read for the page's rows only. Same
 * rows, same order, same columns as registerRowsQuery's over the same page.
 */
export function registerPageQuery(query: RegisterQuery, sort: RegisterSort, page: { limit: number; offset: number }): RawBuilder<RegisterRow> {
  const { enterpriseId } = query;
  const extras = rowExtras(query);
  return sql<RegisterRow>`${registerKeysCte(query, sort)},
paged as (select *, count(*) over () as matching from keys where ${rowFilter(query.filter)}
           order by ${ORDER[sort]} limit ${page.limit} offset ${page.offset}),
selected as (
  select ${registerColumns('c', 'ap')}, c.matching
    from paged c
    join bras b on b.enterprise_id = ${enterpriseId} and b.id = c.bra_id
    join legal_entities le on le.enterprise_id = b.enterprise_id and le.id = b.legal_entity_id
    left join business_units bu on bu.enterprise_id = b.enterprise_id and bu.id = b.business_unit_id
    ${APPETITE}
    ${acceptance(query.today, 'c')}
)
select selected.*, ${extras.columns}
  from selected
  ${extras.joins}
 order by ${ORDER[sort]}`;
}

/**
 * A page and the number of matching rows, from one statement (registerPageQuery). A page past the end has no
 * row to carry the count: it is then asked for alone.
 */
export async function registerPage(db: Executor, query: RegisterQuery, sort: RegisterSort, limit: number, offset: number) {
  const { rows } = await registerPageQuery(query, sort, { limit, offset }).execute(db);
  const total = rows.length > 0 ? Number(rows[0]!.matching) : offset === 0 ? 0 : await countRegister(db, query);
  return { rows, total };
}

export async function countRegister(db: Executor, query: RegisterQuery): Promise<number> {
  const { rows } = await sql<{ total: string }>`${registerKeysCte(query)}
select count(*) as total from keys where ${rowFilter(query.filter)}`.execute(db);
  return Number(rows[0]?.total ?? 0);
}
