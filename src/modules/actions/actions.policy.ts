import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { assignedScope, permits, requireAssigned, requireMember, requireRole, seesWholeEnterprise } from '../../platform/auth/policies.js';
import type { Principal } from '../../platform/auth/principal.js';
import { assignedToPlaceSql, type SqlOperand } from '../bras/bras.policy.js';

/**
 * Who may see and change mitigation actions (D5). What a caller sees and what they may change are the
 * same set (their list's scope); reviewers see but never change.
 */

/**
 * The list's scope as a predicate on `a` (mitigation_actions) and `b` (its BRA, left joined): client admins
 * everything; reviewers the actions of BRAs of assigned entities; assessors those and the unlinked actions
 * they created. Never null (coalesce), so it can be selected as a flag (`in_scope` of a locked action).
 */
export function actionScope(caller: Principal): RawBuilder<SqlBool> {
  if (seesWholeEnterprise(caller)) return sql<SqlBool>`true`;
  const linked = sql<SqlBool>`(a.bra_id is not null and ${assignedScope(caller, 'b.legal_entity_id', 'b.business_unit_id')})`;
  if (caller.role !== 'assessor') return sql<SqlBool>`coalesce(${linked}, false)`;
  return sql<SqlBool>`coalesce(${linked} or (a.bra_id is null and a.created_by = ${caller.userId}), false)`;
}

type Member = Principal & { enterpriseId: string };

/** GET /actions and an action: members of an enterprise (which actions: actionScope). */
export function requireActionReader(caller: Principal): asserts caller is Member {
  requireMember(caller);
}

/**
 * An action's BRA, named by a list filter (D10.1) or by a new action (D7.3): one of the caller's assigned
 * entities or units (403 otherwise; client admins are everywhere).
 */
export function requireActionBra(caller: Principal, bra: { legal_entity_id: string; business_unit_id: string | null }): void {
  requireAssigned(caller, bra.legal_entity_id, bra.business_unit_id);
}

/** POST, PATCH, bulk update, archive: client admins and assessors (assessors within actionScope). */
export function requireActionEditor(caller: Principal): asserts caller is Member {
  requireMember(caller);
  requireRole(caller, ['admin', 'assessor'], 'changes to mitigation actions');
}

export const canChangeActions = (caller: Principal): boolean => permits(() => requireActionEditor(caller));

/** What the caller may do to a listed action now (its `abilities`): change it or archive it, while not archived. */
export function actionAbilities(caller: Principal, action: { archived: boolean }) {
  const editor = canChangeActions(caller) && !action.archived;
  return { update: editor, archive: editor };
}

/**
 * What an action's read rule looks at: its BRA (null when unlinked) with that BRA's place, and who created
 * it, as values or as the columns of a set-based statement (ACTION_ROW).
 */
export interface ActionReadPlace {
  braId: SqlOperand;
  legalEntityId: SqlOperand;
  businessUnitId: SqlOperand;
  createdBy: SqlOperand;
}

/** The columns of an action row `a` and its BRA `b` (left joined), for statements over many actions. */
export const ACTION_ROW: ActionReadPlace = {
  braId: sql.ref('a.bra_id'),
  legalEntityId: sql.ref('b.legal_entity_id'),
  businessUnitId: sql.ref('b.business_unit_id'),
  createdBy: sql.ref('a.created_by'),
};

/**
 * The members `m` who may read the action (actionScope, as SQL over a membership rather than a caller):
 * client admins; for an action of a BRA, the assessors and reviewers assigned to its entity or unit; for an
 * unlinked one, the assessor who created it. Whom an action may be assigned to and who is reminded of it.
 */
export function actionReaderSql(action: ActionReadPlace): RawBuilder<SqlBool> {
  return sql<SqlBool>`(m.role = 'admin'
    or (${action.braId}::uuid is not null and ${assignedToPlaceSql(action.legalEntityId, action.businessUnitId)})
    or (${action.braId}::uuid is null and m.role = 'assessor' and m.user_id = ${action.createdBy}::uuid))`;
}

/** The member an action is assigned to (`owner_user_id`, a value or a column), while they may read it. */
export function actionAssigneeSql(ownerUserId: SqlOperand, action: ActionReadPlace): RawBuilder<SqlBool> {
  return sql<SqlBool>`(m.user_id = ${ownerUserId}::uuid and ${actionReaderSql(action)})`;
}
