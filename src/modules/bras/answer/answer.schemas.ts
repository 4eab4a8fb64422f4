import { Type, type Static } from 'typebox';
import { Nullable, Timestamp, Uuid } from '../../../platform/http/schemas.js';
import { AppetiteBreachView, BraDetailView, CommentVerdict, UserRef } from '../bras.schemas.js';

/**
 * What the get-BRA answer adds to the BRA's data (issue 35): the people it names by name, its review comments'
 * count and latest verdicts and, approved, today's breaches. Not part of a snapshot's content.
 */

export const LatestVerdictView = Type.Object({
  author_id: Uuid('Who gave it'),
  author_user: UserRef,
  verdict: CommentVerdict,
  comment_id: Uuid('The comment that carries it'),
  created_at: Timestamp('When it was given'),
});

/** Members the get-BRA answer adds to the BRA's data (not part of a snapshot's content). */
export const braAnswerProperties = {
  created_by_user: Nullable(UserRef),
  approved_by_user: Nullable(UserRef),
  cancelled_by_user: Nullable(UserRef),
  current_appetite_breaches: Type.Optional(
    Type.Array(AppetiteBreachView, {
      description:
        "Approved BRAs only: the included scenarios above today's applicable appetite, while summary and the scenario flags stay as approved (under the appetite pinned by the approval snapshot)",
    }),
  ),
  comment_count: Type.Integer({ minimum: 0, description: 'Review comments on the BRA' }),
  latest_verdicts: Type.Array(LatestVerdictView, { description: 'The latest verdict of each user who gave one, newest first' }),
};

/** The get-BRA answer: the BRA's data with the people it names, its review comments and (approved) today's breaches. */
export const BraAnswerView = Type.Object({ ...BraDetailView.properties, ...braAnswerProperties });
export type BraAnswerView = Static<typeof BraAnswerView>;
