import { sql, type SqlBool } from 'kysely';
import type { Principal } from '../../platform/auth/principal.js';
import { newestFirst } from '../../platform/db/page-queries.js';
import type { Executor } from '../../platform/db/schema.js';
import type { ActionPriority, ActionStatus, MitigationActionsTable } from '../../platform/db/tables/actions.js';
import { ACTIVE_MEMBERS } from '../notifications/notify.js';
import { actionReaderSql, actionScope, type ActionReadPlace } from './actions.policy.js';

/**
 * SQL of the actions module. It writes only `mitigation_actions`. Its lists join, read-only, three tables
 * of the BRA module and the catalogue: `bras` (a linked action's scope is its BRA's legal entity and
 * business unit, D5; and its name), `bra_risk_scenarios` and `risk_scenarios` (the scenario's name).
 * Joining them here keeps the D5 scope a SQL predicate of the list, so pages and totals are right; single
 * BRAs and links are looked up through the BRA module's repositories.
 */

/** The action's own fields, which both the answers and the bulk change's lock read. */
const ACTION_FIELDS = ['a.id', 'a.action', 'a.owner', 'a.owner_user_id', 'a.status', 'a.priority', 'a.action_type', 'a.due_date'] as const;

export interface ActionFilter {
  braId?: string | undefined;
  status?: ActionStatus | undefined;
  priority?: ActionPriority | undefined;
  /** Only actions assigned to this member. */
  ownerUserId?: string | undefined;
  /** Only actions overdue on this date ('YYYY-MM-DD'); undefined: no overdue filter. */
  overdueOn?: string | undefined;
  includeArchived: boolean;
}

function scoped(db: Executor, enterpriseId: string) {
  return db
    .selectFrom('mitigation_actions as a')
    .leftJoin('bras as b', (join) => join.onRef('b.enterprise_id', '=', 'a.enterprise_id').onRef('b.id', '=', 'a.bra_id'))
    .where('a.enterprise_id', '=', enterpriseId);
}

/**
 * The list's one filtered query, for the count and the page alike. The open-action predicates are literal
 * SQL, as in the partial index mitigation_actions_open_idx, so that the planner can use it for
 * overdue_only instead of reading the enterprise's history.
 */
function filtered(db: Executor, enterpriseId: string, caller: Principal, filter: ActionFilter) {
  let query = scoped(db, enterpriseId).where(actionScope(caller));
  if (!filter.includeArchived) query = query.where(sql<SqlBool>`not a.archived`);
  if (filter.braId !== undefined) query = query.where('a.bra_id', '=', filter.braId);
  if (filter.status !== undefined) query = query.where('a.status', '=', filter.status);
  if (filter.priority !== undefined) query = query.where('a.priority', '=', filter.priority);
  if (filter.ownerUserId !== undefined) query = query.where('a.owner_user_id', '=', filter.ownerUserId);
  if (filter.overdueOn !== undefined) {
    query = query.where(sql<SqlBool>`a.status <> 'completed'`).where('a.due_date', '<', filter.overdueOn);
  }
  return query;
}

/** The columns an action is shown with (2.4), its BRA's and scenario's names included. */
function withView<Q extends ReturnType<typeof scoped>>(query: Q) {
  return query
    .leftJoin('bra_risk_scenarios as l', (join) =>
      join.onRef('l.enterprise_id', '=', 'a.enterprise_id').onRef('l.id', '=', 'a.bra_risk_scenario_id'),
    )
    .leftJoin('risk_scenarios as rs', (join) => join.onRef('rs.enterprise_id', '=', 'l.enterprise_id').onRef('rs.id', '=', 'l.risk_scenario_id'))
    .leftJoin('users as ou', 'ou.id', 'a.owner_user_id')
    .select([
      ...ACTION_FIELDS,
      'a.bra_id',
      'a.bra_risk_scenario_id',
      'a.archived',
      'a.created_at',
      'a.updated_at',
      'b.name as bra_name',
      'rs.name as risk_scenario_name',
      'ou.full_name as owner_user_name',
    ]);
}

export type ActionRow = Awaited<ReturnType<typeof listActions>>[number];

/** The list's count and page queries, unexecuted (the index suite EXPLAINs them). */
export function countActionsQuery(db: Executor, enterpriseId: string, caller: Principal, filter: ActionFilter) {
  return filtered(db, enterpriseId, caller, filter).select((eb) => eb.fn.countAll<string | number>().as('total'));
}

export function listActionsQuery(db: Executor, enterpriseId: string, caller: Principal, filter: ActionFilter, limit: number, offset: number) {
  return newestFirst(withView(filtered(db, enterpriseId, caller, filter)), limit, offset, 'a');
}

export async function countActions(db: Executor, enterpriseId: string, caller: Principal, filter: ActionFilter): Promise<number> {
  const row = await countActionsQuery(db, enterpriseId, caller, filter).executeTakeFirstOrThrow();
  return Number(row.total);
}

export async function listActions(
  db: Executor,
  enterpriseId: string,
  caller: Principal,
  filter: ActionFilter,
  limit: number,
  offset: number,
) {
  return listActionsQuery(db, enterpriseId, caller, filter, limit, offset).execute();
}

export async function findActionView(db: Executor, enterpriseId: string, actionId: string) {
  return withView(scoped(db, enterpriseId)).where('a.id', '=', actionId).executeTakeFirst();
}

/**
 * The named actions of the enterprise, locked for the change that follows, each with whether the caller's
 * scope covers it (the same predicate as the list). Ids of other enterprises are simply not found.
 */
export async function lockActions(db: Executor, enterpriseId: string, caller: Principal, ids: readonly string[]) {
  return scoped(db, enterpriseId)
    .where('a.id', 'in', ids)
    .select([
      ...ACTION_FIELDS,
      'a.archived',
      'a.row_version',
      'a.bra_id',
      'a.created_by',
      'b.legal_entity_id',
      'b.business_unit_id',
      actionScope(caller).as('in_scope'),
    ])
    .orderBy('a.id')
    .forUpdate('a')
    .execute();
}

export type LockedAction = Awaited<ReturnType<typeof lockActions>>[number];

export interface NewAction {
  action: string;
  owner: string;
  owner_user_id: string | null;
  priority: ActionPriority;
  action_type: string;
  due_date: string;
  bra_id: string | null;
  bra_risk_scenario_id: string | null;
  created_by: string;
}

export async function insertAction(db: Executor, enterpriseId: string, values: NewAction): Promise<{ id: string }> {
  return db
    .insertInto('mitigation_actions')
    .values({ enterprise_id: enterpriseId, ...values })
    .returning('id')
    .executeTakeFirstOrThrow();
}

export type ActionChanges = Partial<
  Pick<MitigationActionsTable, 'action' | 'owner' | 'owner_user_id' | 'action_type' | 'due_date'> & { status: ActionStatus; priority: ActionPriority }
>;

/** Sets the same changes on every named action (already locked and checked); returns them as changed. */
export async function updateActions(db: Executor, enterpriseId: string, ids: readonly string[], changes: ActionChanges) {
  return db
    .updateTable('mitigation_actions')
    .set({ ...changes, updated_at: sql<Date>`now()` })
    .where('enterprise_id', '=', enterpriseId)
    .where('id', 'in', ids)
    .where(sql<SqlBool>`not archived`)
    .returning(['id', 'action', 'owner', 'owner_user_id', 'status', 'priority', 'action_type', 'due_date', 'updated_at', 'row_version'])
    .execute();
}

/** Whether the user has a membership of the enterprise, active or not (a list filter may name a former member). */
export async function hasMembership(db: Executor, enterpriseId: string, userId: string): Promise<boolean> {
  const row = await db.selectFrom('enterprise_members').select('user_id').where('enterprise_id', '=', enterpriseId).where('user_id', '=', userId).executeTakeFirst();
  return row !== undefined;
}

/** Whether the user is an active member of the enterprise who may read an action of this place (actionReaderSql). */
export async function mayReadAction(db: Executor, enterpriseId: string, userId: string, action: ActionReadPlace): Promise<boolean> {
  const { rows } = await sql<{ user_id: string }>`
    select m.user_id from ${ACTIVE_MEMBERS}
     where m.enterprise_id = ${enterpriseId} and m.user_id = ${userId}::uuid and ${actionReaderSql(action)}`.execute(db);
  return rows.length > 0;
}

export async function markArchived(db: Executor, enterpriseId: string, actionId: string, userId: string) {
  return db
    .updateTable('mitigation_actions')
    .set({ archived: true, archived_at: sql<Date>`now()`, archived_by: userId, updated_at: sql<Date>`now()` })
    .where('enterprise_id', '=', enterpriseId)
    .where('id', '=', actionId)
    .where(sql<SqlBool>`not archived`)
    .returning(['id', 'archived_at', 'row_version'])
    .executeTakeFirst();
}

/**
 * D9.5 across enterprises (platform work, not a tenant's request): enterprises with at least `atLeast`
 * open, unarchived actions of priority high or critical due before `today`. Served by the partial index
 * mitigation_actions_urgent_due_idx, whose predicates are repeated here literally.
 */
export function overdueUrgentQuery(db: Executor, today: string, atLeast: number) {
  return db
    .selectFrom('mitigation_actions')
    .select((eb) => ['enterprise_id', eb.fn.countAll<string | number>().as('overdue')])
    .where(sql<SqlBool>`status <> 'completed'`)
    .where(sql<SqlBool>`not archived`)
    .where(sql<SqlBool>`priority in ('high', 'critical')`)
    .where('due_date', '<', today)
    .groupBy('enterprise_id')
    .having((eb) => eb.fn.countAll(), '>=', atLeast)
    .orderBy('enterprise_id');
}

export async function enterprisesWithOverdueUrgentActions(db: Executor, today: string, atLeast: number) {
  const rows = await overdueUrgentQuery(db, today, atLeast).execute();
  return rows.map((row) => ({ enterprise_id: row.enterprise_id, overdue: Number(row.overdue) }));
}
