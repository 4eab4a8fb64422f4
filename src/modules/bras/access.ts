import type { Transaction } from 'kysely';
import type { Caller } from '../../platform/auth/principal.js';
import { lockForChange } from '../../platform/changes/versioned-change.js';
import type { DB, Executor } from '../../platform/db/schema.js';
import { invalidState, notFound } from '../../platform/errors/app-error.js';
import type { ChangeTerms } from '../../platform/versions/change-terms.js';
import { representationState, type ResourceState } from '../../platform/versions/resource-state.js';
import { loadBraAnswer } from './answer/answer.js';
import { findBra, type BraRow } from './bras.repository.js';
import { requireBraMember, requireBraReader } from './bras.policy.js';
import { EDITABLE, hasStatus } from './bras.lifecycle.js';

/**
 * A BRA as a request reaches it (D10.1, D6.7). The order is fixed: another enterprise's BRA or an unknown
 * id → 404; then the policy (bras.policy.ts) → 403; then the state → 409.
 */

/** Reads: the BRA, if the caller may read it. */
export async function readableBra(db: Executor, caller: Caller, braId: string): Promise<BraRow> {
  requireBraMember(caller);
  const bra = await findBra(db, caller.enterpriseId, braId);
  if (bra === undefined) throw notFound('BRA');
  requireBraReader(caller, bra);
  return bra;
}

/**
 * The BRA under its row lock, for a change the policy allows the caller, in the state the change expects
 * (If-Match, compared here under the lock: 404 and 403 come first).
 */
export async function lockedBra(
  trx: Transaction<DB>,
  caller: Caller,
  braId: string,
  policy: (caller: Caller, bra: BraRow) => void,
  terms: ChangeTerms,
): Promise<BraRow> {
  requireBraMember(caller);
  const enterpriseId = caller.enterpriseId;
  return lockForChange(
    {
      noun: 'BRA',
      lock: () => findBra(trx, enterpriseId, braId, true),
      authorize: (bra) => policy(caller, bra),
      stateOf: (bra) => stateOfAnswer(trx, bra),
    },
    terms,
  );
}

/**
 * A BRA's state as its read shows it (resource-state.ts): its answer carries figures from other records (the
 * appetite that applies, its comments, the people it names), so the state is its version and a digest of
 * that answer. The read and every change compute it here, so the tag a change answers is the tag of the next
 * read.
 */
export async function stateOfAnswer(db: Executor, bra: BraRow): Promise<ResourceState> {
  return representationState(bra.row_version, await loadBraAnswer(db, bra));
}

/** The BRA's state at the end of a change, once the triggers of its scenarios, ratings and links have bumped its version. */
export async function braStateAfter(db: Executor, bra: { enterprise_id: string; id: string }): Promise<ResourceState> {
  const current = await findBra(db, bra.enterprise_id, bra.id);
  if (current === undefined) throw notFound('BRA');
  return stateOfAnswer(db, current);
}

/** Content and fields change only while the lifecycle says the BRA is editable (409 otherwise). */
export function requireEditable(bra: BraRow, what: string): void {
  if (!hasStatus(bra, EDITABLE)) throw invalidState(`${what} only while the BRA is draft or in progress; it is ${bra.status}`);
}
