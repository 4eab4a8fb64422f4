import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import { assignedScope, permits, requireAssigned, requireMember, requireRole, seesLegalEntity } from '../../platform/auth/policies.js';
import type { Principal } from '../../platform/auth/principal.js';
import { forbidden } from '../../platform/errors/app-error.js';
import type { BraStatus } from '../../platform/db/tables/bras.js';
import { ACCEPTABLE, APPROVED, COMMENTABLE, EDITABLE, canMove, hasStatus } from './bras.lifecycle.js';

/**
 * Who may do what with a BRA (D5). Each rule is a check the services call (a refusal is a 403 and an
 * access_denied entry) and a predicate of the same name for whoever asks. Which BRA and in which state
 * come first and are the services' business: another enterprise's BRA is 404, a state 409 (D10.1).
 */

/** Where a BRA lives: what assignments are checked against. */
export interface BraPlace {
  legal_entity_id: string;
  business_unit_id: string | null;
}

/** Reaching BRAs at all (GET /bras, then each BRA's own rules): members of an enterprise; super admins have no risk data. */
export function requireBraMember(caller: Principal): asserts caller is Principal & { enterpriseId: string } {
  requireMember(caller);
}

/**
 * GET /bras filtered by a legal entity or a unit (D10.1): the filter must name a place the caller reads,
 * some part of the entity (a unit-level assignment counts) or the unit itself; 403 otherwise.
 */
export function requireBraListFilter(caller: Principal, filter: { legalEntityId?: string | undefined; unit?: BraPlace | undefined }): void {
  if (filter.legalEntityId !== undefined && !seesLegalEntity(caller, filter.legalEntityId)) {
    throw forbidden('You are not assigned to this legal entity');
  }
  if (filter.unit !== undefined) requireAssigned(caller, filter.unit.legal_entity_id, filter.unit.business_unit_id);
}

/** Reads of a BRA and its content: client admins; assessors and reviewers assigned to its entity or unit. */
export function requireBraReader(caller: Principal, bra: BraPlace): void {
  requireBraMember(caller);
  requireAssigned(caller, bra.legal_entity_id, bra.business_unit_id);
}

export const canReadBra = (caller: Principal, bra: BraPlace): boolean => permits(() => requireBraReader(caller, bra));

/** The read rule as a SQL predicate over `b` (bras), so that a list's pages and totals hold only readable BRAs. */
export function braScopeFor(caller: Principal): Expression<SqlBool> {
  return assignedScope(caller, 'b.legal_entity_id', 'b.business_unit_id');
}

/** POST /bras, before anything is looked up: client admins and assessors. */
export function requireBraAuthor(caller: Principal): asserts caller is Principal & { enterpriseId: string } {
  requireMember(caller);
  requireRole(caller, ['admin', 'assessor'], 'creating BRAs');
}

/** A new BRA in a place (POST /bras, a roll-forward): an author assigned to it (client admins are everywhere). */
/** Whether the caller may create BRAs at all (in some place they may write): client admins and assessors. */
export const canCreateBras = (caller: Principal): boolean => permits(() => requireBraAuthor(caller));

export function requireBraAuthorIn(caller: Principal, place: BraPlace): void {
  requireBraAuthor(caller);
  requireAssigned(caller, place.legal_entity_id, place.business_unit_id);
}

export const canCreateBraIn = (caller: Principal, place: BraPlace): boolean => permits(() => requireBraAuthorIn(caller, place));

/**
 * Rolling an approved BRA forward (POST /bras/{id}/roll-forward): whoever may create a BRA in its place, client
 * admins or an assessor assigned to its entity or unit. The new BRA is theirs (created_by), so they may edit it.
 */
export function requireBraRoller(caller: Principal, bra: BraPlace): void {
  requireBraAuthorIn(caller, bra);
}

export const canRollForwardBra = (caller: Principal, bra: BraPlace): boolean => permits(() => requireBraRoller(caller, bra));

/** PATCH, content changes (scenarios, ratings, control links) and submit: client admins, or the assessor who created it while still assigned. */
export function requireBraEditor(caller: Principal, bra: BraPlace & { created_by: string | null }): void {
  requireMember(caller);
  requireRole(caller, ['admin', 'assessor'], 'changes to BRAs');
  if (caller.role === 'assessor') {
    requireAssigned(caller, bra.legal_entity_id, bra.business_unit_id);
    if (bra.created_by !== caller.userId) throw forbidden('Assessors may change only the BRAs they created');
  }
}

export const canEditBra = (caller: Principal, bra: BraPlace & { created_by: string | null }): boolean =>
  permits(() => requireBraEditor(caller, bra));

/** Approve, cancel, return: client admins only. */
export function requireBraApprover(caller: Principal): void {
  requireMember(caller);
  requireRole(caller, ['admin'], 'approving, cancelling or returning BRAs');
}

export const canApproveBra = (caller: Principal): boolean => permits(() => requireBraApprover(caller));

/**
 * Accept, renew and revoke a risk above appetite (issue 48): client admins only, the people who approve the
 * assessment; an assessor proposes, the enterprise's administrator decides (docs/decisions.md).
 */
export function requireRiskAcceptor(caller: Principal): void {
  requireMember(caller);
  requireRole(caller, ['admin'], 'accepting, renewing or revoking risks');
}

export const canAcceptRisks = (caller: Principal): boolean => permits(() => requireRiskAcceptor(caller));

/** Whether the caller may accept, renew or revoke the acceptance of this BRA's risks now (its `accept_risks` ability). */
export const canAcceptRisksOn = (caller: Principal, bra: { status: BraStatus }): boolean => hasStatus(bra, ACCEPTABLE) && canAcceptRisks(caller);

/**
 * Review comments (issue 35): whoever reads the BRA and is a client admin, an assessor or a reviewer may
 * comment (the state, in progress or under review, is the service's business: 409).
 */
export function requireBraCommenter(caller: Principal, bra: BraPlace): void {
  requireBraReader(caller, bra);
  requireRole(caller, ['admin', 'assessor', 'reviewer'], 'commenting on BRAs');
}

export const canCommentOnBra = (caller: Principal, bra: BraPlace): boolean => permits(() => requireBraCommenter(caller, bra));

/** A comment with a verdict: client admins and reviewers who may comment; an assessor's opinion of their work is no review. */
export function requireBraVerdictGiver(caller: Principal, bra: BraPlace): void {
  requireBraCommenter(caller, bra);
  requireRole(caller, ['admin', 'reviewer'], 'giving verdicts on BRAs');
}

export const canGiveBraVerdict = (caller: Principal, bra: BraPlace): boolean => permits(() => requireBraVerdictGiver(caller, bra));

/**
 * What the caller may do to this BRA now (the `abilities` of its read): each member is the predicate the service
 * enforces for that call, and the lifecycle's state where the call has one. Content completeness (every
 * included scenario rated, for an approval) is checked by the move itself.
 */
export function braAbilities(caller: Principal, bra: BraPlace & { created_by: string | null; status: BraStatus }) {
  const editor = canEditBra(caller, bra);
  const approver = canApproveBra(caller);
  const commentable = hasStatus(bra, COMMENTABLE);
  return {
    update: editor && hasStatus(bra, EDITABLE),
    submit: editor && canMove(bra, 'submit'),
    approve: approver && canMove(bra, 'approve'),
    return: approver && canMove(bra, 'return'),
    cancel: approver && canMove(bra, 'cancel'),
    comment: commentable && canCommentOnBra(caller, bra),
    give_verdict: commentable && canGiveBraVerdict(caller, bra),
    roll_forward: hasStatus(bra, APPROVED) && canRollForwardBra(caller, bra),
    accept_risks: canAcceptRisksOn(caller, bra),
  };
}

/** A place as values, or as columns of a set-based statement (`sql.ref('b.legal_entity_id')`). */
export type SqlOperand = RawBuilder<unknown> | string | null;

/**
 * A membership `m` assigned to this legal entity, or to this business unit of it (SQL; D5 "assigned", as
 * isAssigned): the place of a BRA, given as values or as the columns of a BRA row.
 */
export function assignedToPlaceSql(legalEntityId: SqlOperand, businessUnitId: SqlOperand): RawBuilder<SqlBool> {
  return sql<SqlBool>`exists (
    select 1 from entity_roles er
     where er.enterprise_id = m.enterprise_id and er.user_id = m.user_id and er.legal_entity_id = ${legalEntityId}::uuid
       and (er.business_unit_id is null or er.business_unit_id = ${businessUnitId}::uuid))`;
}

const assignedToBraSql = (bra: BraPlace): RawBuilder<SqlBool> => assignedToPlaceSql(bra.legal_entity_id, bra.business_unit_id);

/**
 * Who is told of a BRA (issue 49), as SQL over an enterprise membership `m`, by the read rule
 * (requireBraReader): nobody hears of a BRA they may not read. `reviewers`: its client admins, who approve
 * it, and the reviewers who read it; `author`: the member who created it, while they still read it.
 */
export function braAudienceSql(bra: BraPlace & { created_by: string | null }, audience: 'reviewers' | 'author'): RawBuilder<SqlBool> {
  if (audience === 'reviewers') return sql<SqlBool>`(m.role = 'admin' or (m.role = 'reviewer' and ${assignedToBraSql(bra)}))`;
  return sql<SqlBool>`(m.user_id = ${bra.created_by} and (m.role = 'admin' or ${assignedToBraSql(bra)}))`;
}

/** The members `m` who may accept, renew and revoke risks (requireRiskAcceptor), as SQL: the client admins. */
export function riskAcceptorSql(): RawBuilder<SqlBool> {
  return sql<SqlBool>`(m.role = 'admin')`;
}
