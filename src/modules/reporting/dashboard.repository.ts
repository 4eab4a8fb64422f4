import { sql, type Expression, type SqlBool, type Transaction } from 'kysely';
import type { DB } from '../../platform/db/schema.js';
import { approvedBraSql } from '../bras/bras.lifecycle.js';
import type { CellCount } from './risk-heat-map.js';
import { registerFiguresCte, type RegisterQuery } from './register.repository.js';

/**
 * Every figure of the dashboard in one statement (one round trip, no loop over BRAs): the register's rows
 * (the newest approved BRA of each place) for the scenario figures and heat maps, the caller's BRAs by
 * status, their overdue actions by priority, the control library's sub-controls in scope, and the trend of
 * residual scores per approval period. Each part is an aggregate; no row of the data leaves the database.
 * The trend reads one row of figures per approved BRA (bra_residual_figures, kept by the database when a
 * BRA is approved), not every rating of every approved BRA.
 */
/** The dashboard's acceptances expiring soon: those in force whose last day is within 30 days, the 10 soonest. */
export const EXPIRING_WITHIN_DAYS = 30;
const EXPIRING_LISTED = 10;

export interface DashboardQuery extends RegisterQuery {
  /** The caller's list of actions (D5), a predicate over `a` and its BRA `b`. */
  actionScope: Expression<SqlBool>;
}

export interface DashboardRow {
  bras_by_status: Record<string, number> | null;
  assessed: number;
  above_appetite: number;
  above_appetite_accepted: number;
  acceptances_expiring: Array<{ acceptance_id: string; bra_id: string; bra_name: string; scenario_id: string; scenario_name: string; expires_on: string }>;
  inherent_cells: CellCount[];
  residual_cells: CellCount[];
  overdue_by_priority: Record<string, number> | null;
  effectiveness: Record<string, number> | null;
  sub_controls_total: number;
  untested_12_months: number;
  trend: Array<{ period: string; first_approved_at: string; bras: number; scenarios: number; average_residual_score: number | null; max_residual_score: number | null }>;
}

/**
 * Run inside a transaction of its own (the service opens it): the statement's plan costs more than the
 * server's `jit_above_cost`, and compiling it (JIT, ~0.25–0.45 s at the `medium` bench scale) costs more
 * than it saves on a statement of index lookups and small aggregates, so JIT is off for this transaction
 * only (`set local`).
 */
export async function dashboardFigures(db: Transaction<DB>, query: DashboardQuery): Promise<DashboardRow> {
  await sql`set local jit = off`.execute(db);
  const { enterpriseId, scope, filter, today } = query;
  const place = sql<SqlBool>`(${filter.legal_entity_id === undefined ? sql`true` : sql`b.legal_entity_id = ${filter.legal_entity_id}`}
    and ${filter.business_unit_id === undefined ? sql`true` : sql`b.business_unit_id = ${filter.business_unit_id}`})`;
  const placeFiltered = filter.legal_entity_id !== undefined || filter.business_unit_id !== undefined;
  // The control library's scope, as GET /controls/effectiveness reads it (D7.1): every sub-control, or with a
  // place those linked to BRAs of it that the caller sees.
  const subControlScope = placeFiltered
    ? sql<SqlBool>`exists (select 1 from bra_controls bc join bras b on b.enterprise_id = bc.enterprise_id and b.id = bc.bra_id
         where bc.enterprise_id = sc.enterprise_id and bc.sub_control_id = sc.id and ${place} and ${scope})`
    : sql<SqlBool>`true`;
  const cells = (kind: 'inherent' | 'residual') => sql`(
    select coalesce(json_agg(json_build_object('impact', g.impact, 'likelihood', g.likelihood, 'count', g.n)), '[]'::json)
      from (select ${sql.ref(`${kind}_impact`)} as impact, ${sql.ref(`${kind}_likelihood`)} as likelihood, count(*)::int as n
              from register where ${sql.ref(`${kind}_impact`)} is not null group by 1, 2) g)`;
  const { rows } = await sql<DashboardRow>`${registerFiguresCte(query)},
sub_control_figures as (
  select coalesce(sc.total_effectiveness, 'not_assessed') as label, count(*)::int as n,
         count(*) filter (where sc.testing_date is null or sc.testing_date < ${today}::date - interval '12 months')::int as untested
    from sub_controls sc where sc.enterprise_id = ${enterpriseId} and not sc.archived and ${subControlScope}
   group by 1
)
select
  (select json_object_agg(s.status, s.n) from (
     select b.status, count(*)::int as n from bras b where b.enterprise_id = ${enterpriseId} and ${scope} and ${place} group by b.status) s
  ) as bras_by_status,
  (select count(*)::int from register where inherent_score is not null and residual_score is not null) as assessed,
  (select count(*)::int from register where above_appetite) as above_appetite,
  (select count(*)::int from register where above_appetite and acceptance_id is not null) as above_appetite_accepted,
  (select coalesce(json_agg(x order by x.expires_on, x.acceptance_id), '[]'::json) from (
     select g.acceptance_id, g.bra_id, b.name as bra_name, g.scenario_link_id as scenario_id, g.scenario_name, g.accepted_until as expires_on
       from register g
       join bras b on b.enterprise_id = ${enterpriseId} and b.id = g.bra_id
      where g.acceptance_id is not null and g.accepted_until <= ${today}::date + ${EXPIRING_WITHIN_DAYS}::int
      order by g.accepted_until, g.acceptance_id
      limit ${EXPIRING_LISTED}) x
  ) as acceptances_expiring,
  ${cells('inherent')} as inherent_cells,
  ${cells('residual')} as residual_cells,
  (select json_object_agg(p.priority, p.n) from (
     select a.priority, count(*)::int as n
       from mitigation_actions a
       left join bras b on b.enterprise_id = a.enterprise_id and b.id = a.bra_id
      where a.enterprise_id = ${enterpriseId} and not a.archived and a.status <> 'completed' and a.due_date < ${today}::date
        and ${query.actionScope} and ${placeFiltered ? place : sql`true`}
      group by a.priority) p
  ) as overdue_by_priority,
  (select json_object_agg(label, n) from sub_control_figures) as effectiveness,
  (select coalesce(sum(n), 0)::int from sub_control_figures) as sub_controls_total,
  (select coalesce(sum(untested), 0)::int from sub_control_figures) as untested_12_months,
  (select coalesce(json_agg(t order by t.first_approved_at, t.period), '[]'::json) from (
     select b.period, min(b.approved_at) as first_approved_at, count(*)::int as bras,
            sum(f.scenarios)::int as scenarios,
            round(sum(f.score_sum)::numeric / nullif(sum(f.scenarios), 0), 2)::float8 as average_residual_score,
            max(f.score_max) as max_residual_score
       from bras b
       join bra_residual_figures f on f.enterprise_id = b.enterprise_id and f.bra_id = b.id
      where b.enterprise_id = ${enterpriseId} and ${approvedBraSql('b')} and ${scope} and ${place}
      group by b.period) t
  ) as trend`.execute(db);
  return rows[0]!;
}
