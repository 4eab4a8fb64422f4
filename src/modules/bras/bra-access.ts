import { requireMember } from '../../platform/auth/policies.js';
import type { Transaction } from 'kysely';
import type { Caller } from '../../platform/auth/principal.js';
import type { DB, Executor } from '../../platform/db/schema.js';
import { invalidState, notFound } from '../../platform/http/errors.js';
import { requireCurrentVersion, servedVersion } from '../../platform/http/conditional/preconditions.js';
import { braVersion, findBra, type BraRow } from './bras.repository.js';
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
  // If-Match (a route declaring ifMatch) is compared here, under the lock: 404 and 403 come first.
  requireCurrentVersion(caller, bra.row_version);
  return bra;
}

/**
 * Tells the platform the BRA's version after a change, for the answer's ETag: read at the end of the
 * transaction, once the triggers of its scenarios, ratings and control links have run. Only when the
 * route asked for it (a route declaring ifMatch).
 */
export async function reportBraVersion(db: Executor, caller: Caller, bra: { enterprise_id: string; id: string }): Promise<void> {
  if (caller.conditions === undefined || caller.conditions === null) return;
  servedVersion(caller, await braVersion(db, bra.enterprise_id, bra.id));
}

const EDITABLE = new Set(['draft', 'in_progress']);

export function requireEditable(bra: BraRow, what: string): void {
  if (!EDITABLE.has(bra.status)) throw invalidState(`${what} only while the BRA is draft or in progress; it is ${bra.status}`);
}
