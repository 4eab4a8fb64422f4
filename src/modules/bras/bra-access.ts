import { requireMember } from '../../platform/auth/policies.js';
import type { Transaction } from 'kysely';
import type { Caller } from '../../platform/auth/principal.js';
import type { DB, Executor } from '../../platform/db/schema.js';
import { invalidState, notFound } from '../../platform/http/errors.js';
import { findBra, type BraRow } from './bras.repository.js';
import { requireBraReader } from './bras.policy.js';

/**
 * A BRA as a request reaches it (D10.1, D6.7). The order is fixed: another enterprise's BRA or an unknown
 * id → 404; then the policy (bras.policy.ts) → 403; then the state → 409.
 */

/** Reads: the BRA, if the caller may read it. */
export async function readableBra(db: Executor, caller: Caller, braId: string): Promise<BraRow> {
  requireMember(caller);
  const bra = await findBra(db, caller.enterpriseId, braId);
  if (bra === undefined) throw notFound('BRA');
  requireBraReader(caller, bra);
  return bra;
}

/** The BRA under its row lock, for a change the policy allows the caller. */
export async function lockedBra(
  trx: Transaction<DB>,
  caller: Caller,
  braId: string,
  policy: (caller: Caller, bra: BraRow) => void,
): Promise<BraRow> {
  requireMember(caller);
  const bra = await findBra(trx, caller.enterpriseId, braId, true);
  if (bra === undefined) throw notFound('BRA');
  policy(caller, bra);
  return bra;
}

const EDITABLE = new Set(['draft', 'in_progress']);

export function requireEditable(bra: BraRow, what: string): void {
  if (!EDITABLE.has(bra.status)) throw invalidState(`${what} only while the BRA is draft or in progress; it is ${bra.status}`);
}
