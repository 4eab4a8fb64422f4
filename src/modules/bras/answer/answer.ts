import type { Executor } from '../../../platform/db/schema.js';
import { loadBraDetail, methodologyOf } from './detail.js';
import { commentDigest, pinnedThreshold } from './answer.repository.js';
import { braPeople } from './people.repository.js';
import { userRef } from './people.js';
import type { BraRow } from '../bras.repository.js';
import { APPROVED, hasStatus } from '../bras.lifecycle.js';
import type { BraAnswerView } from './answer.schemas.js';
import { appetiteBreaches } from './appetite-flags.js';
import { statusMoveRows } from './answer.repository.js';
import { returnReasonOf, transitionsOf } from './timeline.js';

/**
 * The get-BRA answer (issue 35). An approved BRA means what was approved: its summary and scenario flags
 * are computed under the appetite its approval snapshot pinned, so a later appetite change leaves them as
 * the approver saw them, and `current_appetite_breaches` shows the scenarios above today's appetite. Any
 * other BRA is live: today's applicable appetite (D6.9). With the people it names by name, its comment count
 * and the latest verdict of each reviewer, its moves (who and why) and, returned, why (issue 47). A fixed number of statements whatever the BRA holds.
 */
export async function loadBraAnswer(db: Executor, bra: BraRow): Promise<BraAnswerView> {
  const today = (await methodologyOf(db, bra)).appetite.threshold_value;
  const approved = hasStatus(bra, APPROVED) && bra.snapshot_id !== null;
  const pinned = approved ? await pinnedThreshold(db, bra.enterprise_id, bra.id, bra.snapshot_id!) : null;
  const [detail, people, comments, moves] = await Promise.all([
    loadBraDetail(db, bra.enterprise_id, bra.id, pinned ?? today),
    braPeople(db, bra.enterprise_id, bra.id),
    commentDigest(db, bra.enterprise_id, bra.id),
    statusMoveRows(db, bra.enterprise_id, bra.id),
  ]);
  const transitions = transitionsOf(moves);
  return {
    ...detail,
    created_by_user: userRef(people, detail.created_by),
    approved_by_user: userRef(people, detail.approved_by),
    cancelled_by_user: userRef(people, detail.cancelled_by),
    ...(approved ? { current_appetite_breaches: appetiteBreaches(detail.scenarios, today) } : {}),
    comment_count: comments.count,
    latest_verdicts: comments.verdicts.map((verdict) => ({
      author_id: verdict.author_id,
      author_user: { id: verdict.author_id, full_name: verdict.full_name },
      verdict: verdict.verdict,
      comment_id: verdict.comment_id,
      created_at: verdict.created_at,
    })),
    return_reason: returnReasonOf(detail, transitions),
    transitions,
  };
}
