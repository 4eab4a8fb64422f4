import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { validationError } from '../../../platform/errors/app-error.js';
import { representationState, type ResourceState } from '../../../platform/versions/resource-state.js';

/**
 * The rules of a risk acceptance (issue 48), written once. An acceptance holds through its `expires_on`
 * (UTC) and lapses the next day, whether or not the daily round has yet marked it `expired`; the BRA answer,
 * the register, the dashboard and the list embed `inForceSql` in their own statements, so they agree on
 * the day it lapses.
 */

const ALIAS = /^[a-z_][a-z0-9_]*$/;

/** In force on `today` ('YYYY-MM-DD'): active and not past its last day. Over the acceptance row `alias`. */
export function inForceSql(alias: string, today: string): RawBuilder<SqlBool> {
  if (!ALIAS.test(alias)) throw new Error(`Not an alias: ${alias}`);
  const column = (name: string) => sql.ref(`${alias}.${name}`);
  return sql<SqlBool>`(${column('status')} = 'active' and ${column('expires_on')} >= ${today}::date)`;
}

/** The same rule over a row already read. */
export function isInForce(acceptance: { status: string; expires_on: string }, today: string): boolean {
  return acceptance.status === 'active' && acceptance.expires_on >= today;
}

/**
 * `left join lateral (…) <as> on true`: the acceptance in force of scenario link `link` (its `enterprise_id`
 * and its id, the column `linkId`: `id` on a link row, `scenario_link_id` on a register entry), at most one
 * (risk_acceptances_active_key), with its id and last day. `perRow` keeps it a lookup per row of `link` (by that
 * index: for a page's few rows), where the planner could otherwise join the whole tenant's acceptances.
 */
export function acceptanceInForceJoin(link: string, today: string, as: string, linkId = 'id', perRow = false): RawBuilder<unknown> {
  if (!ALIAS.test(link) || !ALIAS.test(as) || !ALIAS.test(linkId)) throw new Error(`Not an alias: ${link}, ${as}, ${linkId}`);
  return sql`left join lateral (
    select ra_in_force.id, ra_in_force.expires_on
      from risk_acceptances ra_in_force
     where ra_in_force.enterprise_id = ${sql.ref(`${link}.enterprise_id`)} and ra_in_force.bra_risk_scenario_id = ${sql.ref(`${link}.${linkId}`)}
       and ${inForceSql('ra_in_force', today)}
     ${perRow ? sql`limit 1` : sql``}
  ) ${sql.raw(as)} on true`;
}

/** 'YYYY-MM-DD' plus whole days (UTC). */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00.000Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** An expiry from today (exclusive) to today + the configured maximum (inclusive); else 422 on `expires_on`. */
export function requireExpiryWithin(expiresOn: string, today: string, maxDays: number): void {
  const latest = addDays(today, maxDays);
  if (expiresOn <= today || expiresOn > latest) {
    throw validationError([{ field: 'expires_on', message: `must be after today (${today}) and at most ${maxDays} days ahead (${latest})` }]);
  }
}

/** A new residual score above the one accepted ends the acceptance: the risk accepted is no longer the risk run. */
export function outgrowsAcceptance(newResidualScore: number, acceptedResidualScore: number): boolean {
  return newResidualScore > acceptedResidualScore;
}

/**
 * An acceptance's state (its ETag): its row version (1 while active, 2 once ended: its terms never change)
 * and a digest of its answer, whose `in_force` turns with the calendar.
 */
export function acceptanceState(row: { row_version: number }, view: object): ResourceState {
  return representationState(row.row_version, view);
}
