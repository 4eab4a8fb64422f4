import { auditFrom } from '../../platform/audit/audit-events.js';
import { writeAudit } from '../../platform/audit/audit-writer.js';
import { requireAssigned, requireMember, requireRole } from '../../platform/auth/policies.js';
import type { Transaction } from 'kysely';
import type { Caller } from '../../platform/auth/principal.js';
import type { DB, Executor } from '../../platform/db/schema.js';
import { forbidden, invalidState, notFound } from '../../platform/http/errors.js';
import { findBra, updateBra, type BraRow } from './bras.repository.js';

/**
 * Who may touch a BRA (D5, D10.1) and in which state (3.1, D6.7). The order is fixed: another
 * enterprise's BRA or an unknown id → 404; then the role and assignment → 403; then the state → 409.
 */

export type MemberCaller = Caller & { enterpriseId: string };

/** Reads: client admins; assessors and reviewers assigned to the BRA's entity or unit. */
export async function readableBra(db: Executor, caller: Caller, braId: string): Promise<BraRow> {
  requireMember(caller);
  const bra = await findBra(db, caller.enterpriseId, braId);
  if (bra === undefined) throw notFound('BRA');
  requireAssigned(caller, bra.legal_entity_id, bra.business_unit_id);
  return bra;
}

/** The BRA under its row lock, for a change the policy allows the caller. */
export async function lockedBra(
  trx: Transaction<DB>,
  caller: Caller,
  braId: string,
  policy: (caller: MemberCaller, bra: BraRow) => void,
): Promise<BraRow> {
  requireMember(caller);
  const bra = await findBra(trx, caller.enterpriseId, braId, true);
  if (bra === undefined) throw notFound('BRA');
  policy(caller, bra);
  return bra;
}

/** PATCH, content changes and submit: client admins, or the assessor who created it while still assigned. */
export function requireEditor(caller: MemberCaller, bra: BraRow): void {
  requireRole(caller, ['admin', 'assessor'], 'changes to BRAs');
  if (caller.role === 'assessor') {
    requireAssigned(caller, bra.legal_entity_id, bra.business_unit_id);
    if (bra.created_by !== caller.userId) throw forbidden('Assessors may change only the BRAs they created');
  }
}

/** Approve, cancel, return. */
export function requireApprover(caller: MemberCaller): void {
  requireRole(caller, ['admin'], 'approving, cancelling or returning BRAs');
}

const EDITABLE = new Set(['draft', 'in_progress']);

export function requireEditable(bra: BraRow, what: string): void {
  if (!EDITABLE.has(bra.status)) throw invalidState(`${what} only while the BRA is draft or in progress; it is ${bra.status}`);
}

/**
 * A content change (scenario, rating, control link) touches the BRA; a draft moves to in_progress by
 * itself (D6.7), audited as an update of the BRA in the same transaction.
 */
export async function touchBra(trx: Transaction<DB>, caller: Caller, bra: BraRow, cause: string): Promise<BraRow> {
  if (bra.status !== 'draft') return updateBra(trx, bra.enterprise_id, bra.id, {});
  const moved = await updateBra(trx, bra.enterprise_id, bra.id, { status: 'in_progress' });
  await writeAudit(trx, {
    enterpriseId: bra.enterprise_id,
    ...auditFrom(caller),
    action: 'update',
    entityType: 'bra',
    entityId: bra.id,
    details: { name: bra.name, status: { from: 'draft', to: 'in_progress' }, cause },
  });
  return moved;
}
