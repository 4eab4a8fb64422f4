import type { BraStatus } from '../../../platform/db/tables/bras.js';
import { BRA_MOVES, hasStatus } from '../bras.lifecycle.js';
import type { StatusMoveRow } from './answer.repository.js';

/**
 * A BRA's timeline of moves and the reason it was last returned (issue 47), read from the trail's entries:
 * the answer names who moved it and why without an audit-trail read the caller may not be allowed.
 */

export interface TransitionEntry {
  from: BraStatus;
  to: BraStatus;
  by_user: { id: string; full_name: string } | null;
  at: Date;
  reason: string | null;
}

export interface ReturnReason {
  reason: string | null;
  returned_by: string | null;
  returned_by_user: { id: string; full_name: string } | null;
  returned_at: Date;
}

/** The "why" each move's entry carries: a return's comment, an approval's final comment, a cancellation's reason. */
const REASON_KEYS = ['comment', 'final_comment', 'cancellation_reason'] as const;

function reasonOf(details: Record<string, unknown>): string | null {
  for (const key of REASON_KEYS) {
    const value = details[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return null;
}

export function transitionsOf(rows: readonly StatusMoveRow[]): TransitionEntry[] {
  return rows.flatMap((row) => {
    const status = row.action_details.status as { from?: unknown; to?: unknown } | null | undefined;
    if (status === null || typeof status !== 'object' || typeof status.from !== 'string' || typeof status.to !== 'string') return [];
    return [
      {
        from: status.from as BraStatus,
        to: status.to as BraStatus,
        by_user: row.user_id === null ? null : { id: row.user_id, full_name: row.user_name ?? '' },
        at: row.created_at,
        reason: reasonOf(row.action_details),
      },
    ];
  });
}

function isReturn(entry: TransitionEntry): boolean {
  return hasStatus({ status: entry.from }, BRA_MOVES.return.from) && entry.to === BRA_MOVES.return.to;
}

/**
 * The last move's reason when that move was a return and the BRA is still where a return leads (in
 * progress): the assessor's to-do until they submit again; null otherwise (never returned, resubmitted,
 * approved or cancelled since).
 */
export function returnReasonOf(bra: { status: BraStatus }, transitions: readonly TransitionEntry[]): ReturnReason | null {
  const last = transitions.at(-1);
  if (last === undefined || !isReturn(last) || bra.status !== BRA_MOVES.return.to) return null;
  return { reason: last.reason, returned_by: last.by_user?.id ?? null, returned_by_user: last.by_user, returned_at: last.at };
}
