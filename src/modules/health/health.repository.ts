import { sql } from 'kysely';
import type { Executor } from '../../platform/db/schema.js';
import { braStatusSql, liveBraSql, NOT_CANCELLED } from '../bras/bras.lifecycle.js';
import { aboveAppetiteSql, applicableAppetite, braPlace } from '../governance/appetite-rules.js';
import type { HealthSignals, HealthStatus } from './health-score.js';

export type EnterpriseSignals = HealthSignals & { enterprise_id: string };

/** Refused sign-ins count over this window (docs/enterprise-health.md). */
const SIGN_IN_WINDOW = '7 days';
/** A BRA still open this long after its start is past its period. */
const PERIOD_DAYS = 365;

/**
 * The health signals of the enterprises named (or of all of them), in one statement: one correlated count
 * per signal and enterprise, each served by an index on enterprise_id. Reads other modules' tables in its
 * own query, as a read-only report does; the applicable appetite and what is above it are governance's
 * (appetite-rules.ts), the statuses the BRA lifecycle's.
 */
export async function countSignals(db: Executor, today: string, enterpriseIds: readonly string[] | 'all'): Promise<EnterpriseSignals[]> {
  if (enterpriseIds !== 'all' && enterpriseIds.length === 0) return [];
  const which = enterpriseIds === 'all' ? sql`true` : sql`e.id = any(${[...enterpriseIds]}::uuid[])`;
  const { rows } = await sql<EnterpriseSignals>`
    select e.id as enterprise_id,
      (select count(*) from mitigation_actions a
        where a.enterprise_id = e.id and not a.archived and a.status <> 'completed'
          and a.priority in ('high', 'critical') and a.due_date < ${today}::date)::int as overdue_urgent_actions,
      (select count(*) from bras b
        join bra_risk_scenarios l on l.enterprise_id = b.enterprise_id and l.bra_id = b.id and l.included
        join bra_ratings r on r.enterprise_id = l.enterprise_id and r.bra_risk_scenario_id = l.id
          and r.rating_type = 'residual' and r.superseded_at is null
        where b.enterprise_id = e.id and ${braStatusSql(NOT_CANCELLED, 'b')}
          and ${aboveAppetiteSql('r.risk_score', applicableAppetite(braPlace('b'), sql`ra.threshold_value`))})::int as scenarios_above_appetite,
      (select count(*) from bras b
        where b.enterprise_id = e.id and ${liveBraSql('b')}
          and coalesce(b.start_date, (b.created_at at time zone 'UTC')::date) < ${today}::date - ${PERIOD_DAYS}::int)::int as bras_past_period,
      (select count(*) from sub_controls s where s.enterprise_id = e.id and not s.archived)::int as sub_controls,
      (select count(*) from sub_controls s
        where s.enterprise_id = e.id and not s.archived
          and (s.total_effectiveness is null or s.total_effectiveness = 'Not Effective'))::int as weak_sub_controls,
      (select count(*) from audit_log g
        where g.enterprise_id = e.id and g.action_type = 'login' and g.status = 'failed'
          and g.created_at >= now() - ${SIGN_IN_WINDOW}::interval)::int as failed_sign_ins
    from enterprises e
    where ${which}`.execute(db);
  return rows;
}

/** Each enterprise's most recent recorded status (the last day it was assessed). */
export async function latestStatuses(db: Executor): Promise<Map<string, HealthStatus>> {
  const rows = await db
    .selectFrom('enterprise_health_history')
    .distinctOn('enterprise_id')
    .select(['enterprise_id', 'status'])
    .orderBy('enterprise_id')
    .orderBy('day', 'desc')
    .execute();
  return new Map(rows.map((row) => [row.enterprise_id, row.status]));
}

export interface DayRecord {
  enterprise_id: string;
  score: number;
  status: HealthStatus;
  signals: HealthSignals;
}

/** Today's row of each enterprise: the latest assessment of the day replaces the earlier one (only when it differs). */
export async function recordDay(db: Executor, day: string, records: readonly DayRecord[]): Promise<void> {
  if (records.length === 0) return;
  await db
    .insertInto('enterprise_health_history')
    .values(records.map((record) => ({ ...record, day, signals: JSON.stringify(record.signals) })))
    .onConflict((oc) =>
      oc
        .columns(['enterprise_id', 'day'])
        .doUpdateSet((eb) => ({
          score: eb.ref('excluded.score'),
          status: eb.ref('excluded.status'),
          signals: eb.ref('excluded.signals'),
          recorded_at: sql`now()`,
        }))
        .where(sql<boolean>`(enterprise_health_history.score, enterprise_health_history.status, enterprise_health_history.signals)
          is distinct from (excluded.score, excluded.status, excluded.signals)`),
    )
    .execute();
}

/** The daily history from `since` (inclusive), oldest first. */
export async function historySince(db: Executor, enterpriseId: string, since: string) {
  return db
    .selectFrom('enterprise_health_history')
    .select(['day', 'score', 'status'])
    .where('enterprise_id', '=', enterpriseId)
    .where('day', '>=', since)
    .orderBy('day', 'asc')
    .execute();
}
