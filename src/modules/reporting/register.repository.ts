import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Executor } from '../../platform/db/schema.js';
import type { RiskLevel } from '../../platform/db/tables/governance.js';
import { approvedBraSql, liveBraSql } from '../bras/bras.lifecycle.js';
import { currentRatingJoin } from '../bras/current-rating.js';
import { EFFECTIVENESS_LABELS } from '../controls/effectiveness-matrix.js';
import { aboveAppetiteSql, applicableAppetite, braPlace } from '../governance/appetite-rules.js';
import { acceptanceInForceJoin } from '../bras/acceptance/acceptance-rules.js';

/**
 * The risk register in SQL: one row per included scenario of the newest approved BRA of each legal entity
 * and business unit the caller sees (and, when asked, of every live BRA), with its current ratings, the
 * applicable appetite (D6.9), the weakest effectiveness of its linked controls, and its open and overdue
 * actions. One statement, whatever the number of BRAs, scenarios, controls or actions: every per-row figure
 * is a join or a lateral subquery served by an index (bras_approved_place_idx, bra_ratings_current_key,
 * risk_appetites_scope_key, bra_controls_scenario_idx, mitigation_actions_scenario_idx). The figures that no
 * filter needs (control effectiveness, actions) are computed for the page's rows only, after the sort; a page
 * (registerPageQuery) sorts and counts narrow rows and reads every other column for its own rows only.
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

export interface RegisterRow {
  legal_entity_id: string;
  legal_entity_name: string;
  business_unit_id: string | null;
  business_unit_name: string | null;
  bra_id: string;
  bra_name: string;
  bra_period: string;
  bra_assessor: string;
  bra_status: string;
  bra_approved_at: Date | null;
  live: boolean;
  scenario_link_id: string;
  risk_scenario_id: string;
  scenario_name: string;
  category: string;
  inherent_impact: number | null;
  inherent_likelihood: number | null;
  inherent_score: number | null;
  inherent_level: RiskLevel | null;
  residual_impact: number | null;
  residual_likelihood: number | null;
  residual_score: number | null;
  residual_level: RiskLevel | null;
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

/** `chosen`: the BRAs whose scenarios the register holds (the newest approved one per place, and the live ones). */
function chosenCte({ enterpriseId, scope, filter }: RegisterQuery): RawBuilder<unknown> {
  const places = placeFilter(filter);
  const live =
    filter.include_live === true
      ? sql`union all
        select b.id, true as live from bras b
        where b.enterprise_id = ${enterpriseId} and ${liveBraSql('b')} and ${scope} and ${places}`
      : sql``;
  return sql`chosen as (
  (select distinct on (b.legal_entity_id, b.business_unit_id) b.id, false as live
     from bras b
    where b.enterprise_id = ${enterpriseId} and ${approvedBraSql('b')} and ${scope} and ${places}
    order by b.legal_entity_id, b.business_unit_id, b.approved_at desc, b.id desc)
  ${live}
)`;
}

/** The applicable appetite of BRA `b` (D6.9, governance's appetite-rules.ts), as `ap`. */
const APPETITE = sql`left join lateral ${applicableAppetite(braPlace('b'), sql`ra.threshold_value, ra.risk_level`)} ap on true`;

/** Whether the residual score of the row is above its appetite (none: false). */
const ABOVE_APPETITE = sql`coalesce(${aboveAppetiteSql('r.risk_score', 'ap.threshold_value')}, false) as above_appetite`;

/** The acceptance in force of link `l` today (acceptance-rules.ts), as `acc`. */
const acceptance = (today: string) => acceptanceInForceJoin('l', today, 'acc');
const ACCEPTANCE_COLUMNS = sql`acc.id as acceptance_id, acc.expires_on as accepted_until`;

/** A current rating of link `l`, as `alias`. */
const rating = (alias: string, type: 'inherent' | 'residual') => sql`left join bra_ratings ${sql.raw(alias)} on ${currentRatingJoin(alias, type)}`;

/** The register's columns, over `c` (chosen), `b`, `le`, `bu`, `l`, `rs`, `i`, `r` and `ap`. */
const REGISTER_COLUMNS = sql`le.id as legal_entity_id, le.name as legal_entity_name,
         bu.id as business_unit_id, bu.name as business_unit_name,
         b.id as bra_id, b.name as bra_name, b.period as bra_period, b.assessor as bra_assessor, b.status as bra_status, b.approved_at as bra_approved_at,
         c.live,
         l.id as scenario_link_id, rs.id as risk_scenario_id, rs.name as scenario_name, rs.category,
         i.impact_score as inherent_impact, i.likelihood_score as inherent_likelihood, i.risk_score as inherent_score, i.risk_level as inherent_level,
         r.impact_score as residual_impact, r.likelihood_score as residual_likelihood, r.risk_score as residual_score, r.risk_level as residual_level,
         ap.threshold_value as appetite_threshold, ap.risk_level as appetite_level,
         ${ABOVE_APPETITE}, ${ACCEPTANCE_COLUMNS}`;

/** `with chosen as (…), register as (…)`: the CTEs every register and dashboard statement starts from. */
export function registerCte(query: RegisterQuery): RawBuilder<unknown> {
  const { enterpriseId } = query;
  return sql`
with ${chosenCte(query)},
register as (
  select ${REGISTER_COLUMNS}
    from chosen c
    join bras b on b.enterprise_id = ${enterpriseId} and b.id = c.id
    join legal_entities le on le.enterprise_id = b.enterprise_id and le.id = b.legal_entity_id
    left join business_units bu on bu.enterprise_id = b.enterprise_id and bu.id = b.business_unit_id
    join bra_risk_scenarios l on l.enterprise_id = b.enterprise_id and l.bra_id = b.id and l.included
    join risk_scenarios rs on rs.enterprise_id = l.enterprise_id and rs.id = l.risk_scenario_id
    ${rating('i', 'inherent')}
    ${rating('r', 'residual')}
    ${APPETITE}
    ${acceptance(query.today)}
)`;
}

/**
 * `with chosen as (…), register as (…)` for the dashboard: the register's rows with only the figures its
 * aggregates read (the current ratings and whether the residual one is above the appetite); the names are left
 * out (every included link has its scenario, every BRA its legal entity: foreign keys), the rows are the same.
 */
export function registerFiguresCte(query: RegisterQuery): RawBuilder<unknown> {
  const { enterpriseId } = query;
  return sql`
with ${chosenCte(query)},
register as (
  select i.impact_score as inherent_impact, i.likelihood_score as inherent_likelihood, i.risk_score as inherent_score,
         r.impact_score as residual_impact, r.likelihood_score as residual_likelihood, r.risk_score as residual_score,
         ${ABOVE_APPETITE}, ${ACCEPTANCE_COLUMNS}, b.id as bra_id, b.name as bra_name, l.id as scenario_link_id, l.risk_scenario_id
    from chosen c
    join bras b on b.enterprise_id = ${enterpriseId} and b.id = c.id
    join bra_risk_scenarios l on l.enterprise_id = b.enterprise_id and l.bra_id = b.id and l.included
    ${rating('i', 'inherent')}
    ${rating('r', 'residual')}
    ${APPETITE}
    ${acceptance(query.today)}
)`;
}

/**
 * `with chosen as (…), keys as (…)`: the register's rows reduced to what the sort and the filters read (the
 * link, its BRA, the sort keys; the inherent rating and the appetite only when a filter asks for them), so
 * that a page sorts and counts narrow rows and reads every other column for its own rows only.
 */
function registerKeysCte(query: RegisterQuery): RawBuilder<unknown> {
  const { enterpriseId, filter } = query;
  const inherent = filter.inherent_impact !== undefined || filter.inherent_likelihood !== undefined;
  const accepted = filter.accepted !== undefined;
  const appetite = filter.above_appetite !== undefined || accepted;
  return sql`
with ${chosenCte(query)},
keys as (
  select b.id as bra_id, c.live, l.id as scenario_link_id, rs.name as scenario_name, rs.category, le.name as legal_entity_name,
         r.impact_score as residual_impact, r.likelihood_score as residual_likelihood, r.risk_score as residual_score, r.risk_level as residual_level
         ${inherent ? sql`, i.impact_score as inherent_impact, i.likelihood_score as inherent_likelihood` : sql``}
         ${appetite ? sql`, ${ABOVE_APPETITE}` : sql``}
         ${accepted ? sql`, acc.id as acceptance_id` : sql``}
    from chosen c
    join bras b on b.enterprise_id = ${enterpriseId} and b.id = c.id
    join legal_entities le on le.enterprise_id = b.enterprise_id and le.id = b.legal_entity_id
    join bra_risk_scenarios l on l.enterprise_id = b.enterprise_id and l.bra_id = b.id and l.included
    join risk_scenarios rs on rs.enterprise_id = l.enterprise_id and rs.id = l.risk_scenario_id
    ${inherent ? rating('i', 'inherent') : sql``}
    ${rating('r', 'residual')}
    ${appetite ? APPETITE : sql``}
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
 * One page of the register and the number of matching rows (`matching`, a window count over the narrow
 * rows, taken before the limit): the sort and the count read only the sort keys and the filtered figures;
 * names, ratings, appetite, control effectiveness and actions are read for the page's rows only. Same rows,
 * same order, same columns as registerRowsQuery's over the same page.
 */
export function registerPageQuery(query: RegisterQuery, sort: RegisterSort, page: { limit: number; offset: number }): RawBuilder<RegisterRow> {
  const { enterpriseId } = query;
  const extras = rowExtras(query);
  return sql<RegisterRow>`${registerKeysCte(query)},
paged as (select bra_id, live, scenario_link_id, count(*) over () as matching from keys where ${rowFilter(query.filter)}
           order by ${ORDER[sort]} limit ${page.limit} offset ${page.offset}),
selected as (
  select ${REGISTER_COLUMNS}, c.matching
    from paged c
    join bras b on b.enterprise_id = ${enterpriseId} and b.id = c.bra_id
    join legal_entities le on le.enterprise_id = b.enterprise_id and le.id = b.legal_entity_id
    left join business_units bu on bu.enterprise_id = b.enterprise_id and bu.id = b.business_unit_id
    join bra_risk_scenarios l on l.enterprise_id = b.enterprise_id and l.bra_id = b.id and l.id = c.scenario_link_id
    join risk_scenarios rs on rs.enterprise_id = l.enterprise_id and rs.id = l.risk_scenario_id
    ${rating('i', 'inherent')}
    ${rating('r', 'residual')}
    ${APPETITE}
    ${acceptance(query.today)}
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
