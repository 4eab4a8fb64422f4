import type { Transaction } from 'kysely';
import type { Caller } from '../../platform/auth/principal.js';
import type { DB } from '../../platform/db/schema.js';
import { notifyMembers } from '../notifications/notify.js';
import { actionAssigneeSql, type ActionReadPlace } from './actions.policy.js';

/** A title quotes at most this much of an action's text (a notification's title holds 500 characters). */
const QUOTED = 150;

/** An action's text as a title quotes it: its first characters, with an ellipsis when it goes on. */
export function quoteAction(text: string): string {
  return text.length <= QUOTED ? text : `${text.slice(0, QUOTED - 1)}…`;
}

/**
 * Tells the member an action is now assigned to (issue 49), in the change's transaction: when it is given to
 * someone other than before, never the person who assigned it (to themself), and only while they may read it.
 */
export async function noticeOfAssignment(
  trx: Transaction<DB>,
  caller: Caller,
  action: { id: string; action: string; due_date: string; owner_user_id: string | null; bra_id?: string | null },
  previousOwner: string | null,
  place: ActionReadPlace,
): Promise<void> {
  const owner = action.owner_user_id;
  if (owner === null || owner === previousOwner) return;
  await notifyMembers(trx, caller.enterpriseId!, actionAssigneeSql(owner, place), {
    kind: 'action_assigned',
    mitigation_action_id: action.id,
    bra_id: action.bra_id ?? null,
    title: `${caller.fullName} assigned you an action due on ${action.due_date}: ${quoteAction(action.action)}`,
    body: action.action,
    actor_id: caller.userId,
  });
}
