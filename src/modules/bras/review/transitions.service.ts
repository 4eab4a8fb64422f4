import { randomUUID } from 'node:crypto';
import type { Caller } from '../../../platform/auth/principal.js';
import type { Executor } from '../../../platform/db/schema.js';
import { inTransaction } from '../../../platform/db/transaction.js';
import type { ChangeTerms } from '../../../platform/versions/change-terms.js';
import { versioned } from '../../../platform/versions/resource-state.js';
import { AppError } from '../../../platform/errors/app-error.js';
import { braStateAfter, lockedBra } from '../access.js';
import { announceBraMove, recordBraChange } from '../changes.js';
import { noticeOfMove } from './review-notices.js';
import { unratedIncludedLinks } from './transitions.repository.js';
import { takeSnapshot } from '../history/snapshots.service.js';
import { markApproved, markCancelled, updateBra } from '../bras.repository.js';
import { requireBraApprover, requireBraEditor } from '../bras.policy.js';
import { BRA_MOVES, requireMove } from '../bras.lifecycle.js';
import type { ApproveBody, CancelBody, ReturnBody } from './transitions.schemas.js';

/**
 * The moves of 3.1 and D6.7. Each takes the BRA's row lock first, so concurrent moves of one BRA run one
 * after the other and the later one sees the earlier one's state: of an approve and a cancel, exactly one
 * wins and the other answers 409 INVALID_STATE.
 */
export interface BraTransitionsDeps {
  db: Executor;
  /**
   * Run once an approval has committed: signs the enterprise's audit chain head, so that an approved
   * assessment is covered by a checkpoint at once rather than at the next periodic round.
   */
  onApproved?: (enterpriseId: string) => Promise<void>;
}

export function createBraTransitionsService({ db, onApproved }: BraTransitionsDeps) {
  return {
    async submit(caller: Caller, braId: string, terms: ChangeTerms) {
      return inTransaction(db, async ({ trx }) => {
        const bra = await lockedBra(trx, caller, braId, requireBraEditor, terms);
        requireMove(bra, 'submit');
        const updated = await updateBra(trx, bra.enterprise_id, bra.id, { status: BRA_MOVES.submit.to });
        await recordBraChange(trx, caller, bra, { status: { from: bra.status, to: updated.status } });
        await announceBraMove(trx, bra, bra.status, updated.status);
        await noticeOfMove(trx, caller, bra, 'submit', null);
        return versioned(updated, await braStateAfter(trx, bra));
      });
    },

    async returnToAssessor(caller: Caller, braId: string, body: ReturnBody, terms: ChangeTerms) {
      return inTransaction(db, async ({ trx }) => {
        const bra = await lockedBra(trx, caller, braId, requireBraApprover, terms);
        requireMove(bra, 'return');
        const updated = await updateBra(trx, bra.enterprise_id, bra.id, { status: BRA_MOVES.return.to });
        await recordBraChange(trx, caller, bra, { status: { from: bra.status, to: updated.status }, comment: body.comment || null });
        await announceBraMove(trx, bra, bra.status, updated.status);
        await noticeOfMove(trx, caller, bra, 'return', body.comment || null);
        return versioned(updated, await braStateAfter(trx, bra));
      });
    },

    /**
     * 4.2: in_progress or under_review, every included scenario rated both ways (excluded ones need no
     * ratings). Sets the approval fields and snapshot_id, then takes the `approved` snapshot under that id
     * (bras_snapshot_fkey is deferred to commit), and audits name, final comment and snapshot id.
     */
    async approve(caller: Caller, braId: string, body: ApproveBody, terms: ChangeTerms) {
      return inTransaction(db, async ({ trx, onCommit }) => {
        const bra = await lockedBra(trx, caller, braId, requireBraApprover, terms);
        requireMove(bra, 'approve');
        const missing = await unratedIncludedLinks(trx, bra.enterprise_id, bra.id);
        if (missing.length > 0) {
          throw new AppError('RATINGS_INCOMPLETE', 'Every included scenario needs an inherent and a residual rating', { missing });
        }
        const snapshotId = randomUUID();
        const updated = await markApproved(trx, bra.enterprise_id, bra.id, {
          approved_by: caller.userId,
          final_comment: body.final_comment || null,
          snapshot_id: snapshotId,
        });
        await takeSnapshot(trx, { enterpriseId: bra.enterprise_id, braId: bra.id, takenBy: caller.userId }, 'approved', snapshotId);
        await recordBraChange(
          trx,
          caller,
          bra,
          { final_comment: updated.final_comment, snapshot_id: snapshotId, status: { from: bra.status, to: updated.status } },
          'approve',
        );
        await announceBraMove(trx, bra, bra.status, updated.status, { type: 'bra.approved', data: { snapshot_id: snapshotId, approved_by: caller.userId } });
        await noticeOfMove(trx, caller, bra, 'approve', updated.final_comment);
        if (onApproved !== undefined) onCommit(() => onApproved(bra.enterprise_id));
        const approved = {
          id: updated.id,
          status: updated.status,
          approved_by: caller.userId,
          approved_at: updated.approved_at ?? new Date(),
          final_comment: updated.final_comment,
          snapshot_id: snapshotId,
        };
        return versioned(approved, await braStateAfter(trx, bra));
      });
    },

    /** Any live state: neither approved nor cancelled (3.1 rules 2 and 3). */
    async cancel(caller: Caller, braId: string, body: CancelBody, terms: ChangeTerms) {
      return inTransaction(db, async ({ trx }) => {
        const bra = await lockedBra(trx, caller, braId, requireBraApprover, terms);
        requireMove(bra, 'cancel');
        const updated = await markCancelled(trx, bra.enterprise_id, bra.id, {
          cancelled_by: caller.userId,
          cancellation_reason: body.cancellation_reason || null,
        });
        await recordBraChange(
          trx,
          caller,
          bra,
          { cancellation_reason: updated.cancellation_reason, status: { from: bra.status, to: updated.status } },
          'cancel',
        );
        await announceBraMove(trx, bra, bra.status, updated.status, { type: 'bra.cancelled', data: { cancelled_by: caller.userId } });
        await noticeOfMove(trx, caller, bra, 'cancel', updated.cancellation_reason);
        const cancelled = {
          id: updated.id,
          status: updated.status,
          cancelled_by: caller.userId,
          cancelled_at: updated.cancelled_at ?? new Date(),
          cancellation_reason: updated.cancellation_reason,
        };
        return versioned(cancelled, await braStateAfter(trx, bra));
      });
    },
  };
}

export type BraTransitionsService = ReturnType<typeof createBraTransitionsService>;
