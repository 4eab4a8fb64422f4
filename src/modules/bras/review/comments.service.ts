import { recordChange } from '../../../platform/audit/record-change.js';
import type { Caller } from '../../../platform/auth/principal.js';
import type { Executor } from '../../../platform/db/schema.js';
import { inTransaction, joinWork } from '../../../platform/db/transaction.js';
import type { ChangeTerms } from '../../../platform/versions/change-terms.js';
import { AppError, invalidState } from '../../../platform/errors/app-error.js';
import { loadPage, pageRequest, type Page } from '../../../platform/http/pagination.js';
import { lockedBra, readableBra } from '../access.js';
import { findScenarioLink } from '../assessment/content.repository.js';
import { countComments, insertComment, listComments, type CommentRow } from './comments.repository.js';
import type { AddCommentBody, CommentView, ListCommentsQuery } from './comments.schemas.js';
import { requireBraCommenter, requireBraVerdictGiver } from '../bras.policy.js';
import { COMMENTABLE, hasStatus } from '../bras.lifecycle.js';
import { noticeOfComment } from './review-notices.js';

function toCommentView(row: CommentRow): CommentView {
  const { author_name, ...comment } = row;
  return { ...comment, author_user: { id: row.author_id, full_name: author_name } };
}

/**
 * Review comments (issue 35): the reviewer's voice, and anyone's who works on the BRA. Appended while the
 * BRA is in progress or under review, never changed; each audited in its transaction. A comment is no change
 * of the assessment: it leaves the BRA's row, version and state alone.
 */
export function createBraCommentsService({ db }: { db: Executor }) {
  return {
    async list(caller: Caller, braId: string, query: ListCommentsQuery): Promise<Page<CommentView>> {
      const bra = await readableBra(db, caller, braId);
      const page = await loadPage(
        pageRequest(query),
        () => countComments(db, bra.enterprise_id, bra.id),
        (limit, offset) => listComments(db, bra.enterprise_id, bra.id, { limit, offset }),
      );
      return { data: page.data.map(toCommentView), pagination: page.pagination };
    },

    /** 404, then the policy (403), then the state (409), then the scenario (400), under the BRA's row lock (so never after an approval). */
    async add(caller: Caller, braId: string, body: AddCommentBody, terms: ChangeTerms): Promise<CommentView> {
      const verdict = body.verdict ?? null;
      const scenarioId = body.scenario_id ?? null;
      return inTransaction(joinWork(db, terms.work), async ({ trx }) => {
        const bra = await lockedBra(trx, caller, braId, verdict === null ? requireBraCommenter : requireBraVerdictGiver, terms);
        if (!hasStatus(bra, COMMENTABLE)) throw invalidState(`A BRA can be commented on only while it is in progress or under review; it is ${bra.status}`);
        if (scenarioId !== null && (await findScenarioLink(trx, bra.enterprise_id, bra.id, scenarioId)) === undefined) {
          throw new AppError('INVALID_REFERENCE', 'scenario_id does not refer to a scenario link of this BRA', { field: 'scenario_id' });
        }
        const { id } = await insertComment(trx, bra.enterprise_id, {
          bra_id: bra.id,
          bra_risk_scenario_id: scenarioId,
          author_id: caller.userId,
          body: body.body,
          verdict,
        });
        await recordChange(trx, caller, {
          enterpriseId: bra.enterprise_id,
          action: 'create',
          entityType: 'bra_comment',
          entityId: id,
          details: { bra_id: bra.id, bra_name: bra.name, scenario_id: scenarioId, verdict, body: body.body },
        });
        await noticeOfComment(trx, caller, bra, body.body);
        const [row] = await listComments(trx, bra.enterprise_id, bra.id, { id });
        return toCommentView(row!);
      });
    },
  };
}

export type BraCommentsService = ReturnType<typeof createBraCommentsService>;
