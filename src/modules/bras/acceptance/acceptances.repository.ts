import { sql, type Expression, type SqlBool } from 'kysely';
import { countRows } from '../../../platform/db/page-queries.js';
import type { Executor } from '../../../platform/db/schema.js';
import type { RiskAcceptanceStatus } from '../../../platform/db/tables/bras.js';
import { inForceSql } from './acceptance-rules.js';

/**
 * Risk acceptances (SQL only). Every read names the enterprise; the list, the BRA answer and a single read
 * share one select (the acceptance with its BRA, scenario and acceptor's names), so they answer the same
 * shape. Served by risk_acceptances_pkey, risk_acceptances_active_key, risk_acceptances_bra_idx,
 * risk_acceptances_list_idx and risk_acceptances_expiry_idx.
 */

export interface NewAcceptance {
  bra_id: string;
  bra_risk_scenario_id: string;
  rationale: string;
  conditions: string | null;
  mitigation_action_id: string | null;
  expires_on: string;
  accepted_residual_score: number;
  accepted_threshold: number;
  accepted_by: string;
  renews_id: string | null;
}

export async function insertAcceptance(db: Executor, enterpriseId: string, values: NewAcceptance): Promise<string> {
  const row = await db.insertInto('risk_acceptances').values({ enterprise_id: enterpriseId, ...values }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** An enterprise's acceptances with what a change reads of them (the policy, the state, the audit entry). */
function acceptanceTerms(db: Executor, enterpriseId: string) {
  return db
    .selectFrom('risk_acceptances')
    .select(['id', 'bra_id', 'bra_risk_scenario_id', 'status', 'expires_on', 'accepted_residual_score', 'mitigation_action_id', 'row_version'])
    .where('enterprise_id', '=', enterpriseId);
}

/** The acceptance to change, under its row lock. */
export async function lockAcceptance(db: Executor, enterpriseId: string, id: string) {
  return acceptanceTerms(db, enterpriseId).where('id', '=', id).forUpdate().executeTakeFirst();
}

/** The active acceptance of a scenario link, if any (past its last day or not: the daily round may not have run). */
export async function activeAcceptanceOf(db: Executor, enterpriseId: string, linkId: string) {
  return acceptanceTerms(db, enterpriseId).where('bra_risk_scenario_id', '=', linkId).where('status', '=', 'active').executeTakeFirst();
}

/** Ends an active acceptance; undefined when it was no longer active. */
export async function endAcceptance(
  db: Executor,
  enterpriseId: string,
  id: string,
  end: { status: Exclude<RiskAcceptanceStatus, 'active'>; ended_by: string | null; end_reason: string | null },
) {
  return db
    .updateTable('risk_acceptances')
    .set({ ...end, ended_at: new Date(), row_version: sql<number>`row_version + 1` })
    .where('enterprise_id', '=', enterpriseId)
    .where('id', '=', id)
    .where('status', '=', 'active')
    .returning('id')
    .executeTakeFirst();
}

/** Acceptances with their BRA (`b`), scenario link (`l`), catalogue scenario (`rs`) and acceptor (`u`). */
function acceptancesWithNames(db: Executor, enterpriseId: string, today: string) {
  return db
    .selectFrom('risk_acceptances as a')
    .innerJoin('bras as b', (join) => join.onRef('b.enterprise_id', '=', 'a.enterprise_id').onRef('b.id', '=', 'a.bra_id'))
    .innerJoin('bra_risk_scenarios as l', (join) => join.onRef('l.enterprise_id', '=', 'a.enterprise_id').onRef('l.id', '=', 'a.bra_risk_scenario_id'))
    .innerJoin('risk_scenarios as rs', (join) => join.onRef('rs.enterprise_id', '=', 'l.enterprise_id').onRef('rs.id', '=', 'l.risk_scenario_id'))
    .innerJoin('users as u', 'u.id', 'a.accepted_by')
    .where('a.enterprise_id', '=', enterpriseId)
    .select([
      'a.id',
      'a.bra_id',
      'b.name as bra_name',
      'b.legal_entity_id',
      'b.business_unit_id',
      'a.bra_risk_scenario_id as scenario_id',
      'l.risk_scenario_id',
      'rs.name as scenario_name',
      'a.rationale',
      'a.conditions',
      'a.mitigation_action_id',
      'a.expires_on',
      'a.accepted_residual_score',
      'a.accepted_threshold',
      'a.accepted_by',
      'u.full_name as accepted_by_name',
      'a.accepted_at',
      'a.renews_id',
      'a.status',
      inForceSql('a', today).as('in_force'),
      'a.ended_at',
      'a.ended_by',
      'a.end_reason',
      'a.row_version',
    ]);
}
export type AcceptanceRow = Awaited<ReturnType<ReturnType<typeof acceptancesWithNames>['execute']>>[number];

export async function findAcceptance(db: Executor, enterpriseId: string, id: string, today: string): Promise<AcceptanceRow | undefined> {
  return acceptancesWithNames(db, enterpriseId, today).where('a.id', '=', id).executeTakeFirst();
}

/** The acceptances in force of one BRA's scenario links (the BRA answer's, and a snapshot's). */
export async function acceptancesInForceOfBra(db: Executor, enterpriseId: string, braId: string, today: string): Promise<AcceptanceRow[]> {
  return acceptancesWithNames(db, enterpriseId, today).where('a.bra_id', '=', braId).where(inForceSql('a', today)).execute();
}

export interface AcceptanceFilter {
  /** The caller's BRAs, a predicate over `b` (bras.policy.ts braScopeFor). */
  scope: Expression<SqlBool>;
  status?: RiskAcceptanceStatus | undefined;
  in_force?: boolean | undefined;
  bra_id?: string | undefined;
  /** In force and lasting at most until this day ('YYYY-MM-DD'). */
  expiring_by?: string | undefined;
}

function filtered(db: Executor, enterpriseId: string, today: string, filter: AcceptanceFilter) {
  return acceptancesWithNames(db, enterpriseId, today)
    .where(filter.scope)
    .$if(filter.status !== undefined, (q) => q.where('a.status', '=', filter.status!))
    .$if(filter.in_force !== undefined, (q) => q.where(filter.in_force ? inForceSql('a', today) : sql<SqlBool>`not ${inForceSql('a', today)}`))
    .$if(filter.bra_id !== undefined, (q) => q.where('a.bra_id', '=', filter.bra_id!))
    .$if(filter.expiring_by !== undefined, (q) => q.where(inForceSql('a', today)).where('a.expires_on', '<=', filter.expiring_by!));
}

export async function countAcceptances(db: Executor, enterpriseId: string, today: string, filter: AcceptanceFilter): Promise<number> {
  return countRows(filtered(db, enterpriseId, today, filter));
}

/** A page, soonest expiry first when asked for those expiring, else newest first. */
export async function listAcceptances(db: Executor, enterpriseId: string, today: string, filter: AcceptanceFilter, page: { limit: number; offset: number }) {
  const query = filtered(db, enterpriseId, today, filter);
  const ordered = filter.expiring_by !== undefined ? query.orderBy('a.expires_on').orderBy('a.id') : query.orderBy('a.accepted_at', 'desc').orderBy('a.id', 'desc');
  return ordered.limit(page.limit).offset(page.offset).execute();
}

/** Active acceptances past their last day (the daily round's work), oldest first, a batch at a time. */
export async function lapsedAcceptances(db: Executor, today: string, limit: number) {
  return db
    .selectFrom('risk_acceptances as a')
    .innerJoin('bra_risk_scenarios as l', (join) => join.onRef('l.enterprise_id', '=', 'a.enterprise_id').onRef('l.id', '=', 'a.bra_risk_scenario_id'))
    .innerJoin('risk_scenarios as rs', (join) => join.onRef('rs.enterprise_id', '=', 'l.enterprise_id').onRef('rs.id', '=', 'l.risk_scenario_id'))
    .innerJoin('bras as b', (join) => join.onRef('b.enterprise_id', '=', 'a.enterprise_id').onRef('b.id', '=', 'a.bra_id'))
    .select(['a.id', 'a.enterprise_id', 'a.bra_id', 'b.name as bra_name', 'a.bra_risk_scenario_id', 'l.risk_scenario_id', 'rs.name as scenario_name', 'a.expires_on'])
    .where('a.status', '=', 'active')
    .where('a.expires_on', '<', today)
    .orderBy('a.expires_on')
    .orderBy('a.id')
    .limit(limit)
    .execute();
}

