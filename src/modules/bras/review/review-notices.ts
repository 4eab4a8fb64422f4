import type { Transaction } from 'kysely';
import type { Caller } from '../../../platform/auth/principal.js';
import type { DB } from '../../../platform/db/schema.js';
import type { NotificationKind } from '../../../platform/db/tables/notifications.js';
import { notifyMembers } from '../../notifications/notify.js';
import type { BraRow } from '../bras.repository.js';
import { braAudienceSql } from '../bras.policy.js';
import type { BraMove } from '../bras.lifecycle.js';

/** The review loop's moves (bras.lifecycle.ts BRA_MOVES) that people are told of, with whom and what (issue 49). */
const MOVES = {
  submit: { kind: 'bra_submitted', audience: 'reviewers', title: (name: string) => `${name} awaits your review` },
  return: { kind: 'bra_returned', audience: 'author', title: (name: string) => `${name} was returned to you` },
  approve: { kind: 'bra_approved', audience: 'author', title: (name: string) => `${name} was approved` },
  cancel: { kind: 'bra_cancelled', audience: 'author', title: (name: string) => `${name} was cancelled` },
} as const satisfies Partial<Record<BraMove, { kind: NotificationKind; audience: 'reviewers' | 'author'; title: (name: string) => string }>>;

/**
 * Tells the people a move concerns, in its transaction: a submitted BRA its reviewers (client admins and
 * the reviewers assigned to it), a returned, approved or cancelled one its assessor, with the reason when
 * one was given. Never the person who moved it, nor anyone who may not read it (bras.policy.ts).
 */
export async function noticeOfMove(trx: Transaction<DB>, caller: Caller, bra: BraRow, move: keyof typeof MOVES, reason: string | null): Promise<void> {
  const { kind, audience, title } = MOVES[move];
  await notifyMembers(trx, bra.enterprise_id, braAudienceSql(bra, audience), { kind, bra_id: bra.id, title: title(bra.name), body: reason, actor_id: caller.userId });
}

/**
 * Tells of a review comment: the assessor who created the BRA hears of others' comments; the assessor's
 * own comment (a reply) goes to the BRA's reviewers.
 */
export async function noticeOfComment(trx: Transaction<DB>, caller: Caller, bra: BraRow, comment: string): Promise<void> {
  const audience = caller.userId === bra.created_by ? 'reviewers' : 'author';
  await notifyMembers(trx, bra.enterprise_id, braAudienceSql(bra, audience), {
    kind: 'bra_commented',
    bra_id: bra.id,
    title: `${caller.fullName} commented on ${bra.name}`,
    body: comment,
    actor_id: caller.userId,
  });
}
