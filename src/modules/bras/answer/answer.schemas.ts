import { Type, type Static } from 'typebox';
import { Nullable, Timestamp, Uuid } from '../../../platform/http/schemas.js';
import { AppetiteBreachView, BraDetailView, BraStatus, CommentVerdict, UserRef } from '../bras.schemas.js';

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

export const TransitionView = Type.Object(
  {
    from: BraStatus,
    to: BraStatus,
    by_user: Nullable(UserRef),
    at: Timestamp('When the BRA moved'),
    reason: Nullable(Type.String({ description: "The move's why: a return's comment, an approval's final comment, a cancellation's reason; null for none" })),
  },
  {
    description: 'A move of the BRA as the audit trail recorded it',
    examples: [
      {
        from: 'under_review',
        to: 'in_progress',
        by_user: { id: '2b7e4c1a-9d3f-4a6b-8c2e-5f1a0b3c4d5e', full_name: 'Olivia Hart' },
        at: '2026-03-02T10:15:00.000Z',
        reason: 'Rate the fraud scenarios again with the Q2 loss data',
      },
    ],
  },
);

export const ReturnReasonView = Type.Object(
  {
    reason: Nullable(Type.String({ description: 'The comment given with the return; null when none was given' })),
    returned_by: Nullable(Uuid('Who returned it')),
    returned_by_user: Nullable(UserRef),
    returned_at: Timestamp('When it was returned'),
  },
  {
    description: 'Why the BRA was returned to the assessor',
    examples: [
      {
        reason: 'Rate the fraud scenarios again with the Q2 loss data',
        returned_by: '2b7e4c1a-9d3f-4a6b-8c2e-5f1a0b3c4d5e',
        returned_by_user: { id: '2b7e4c1a-9d3f-4a6b-8c2e-5f1a0b3c4d5e', full_name: 'Olivia Hart' },
        returned_at: '2026-03-02T10:15:00.000Z',
      },
    ],
  },
);

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
  return_reason: Type.Union([ReturnReasonView, Type.Null()], {
    description: 'Set while the BRA is in progress after a return (its last move): why it was returned, by whom and when; null once resubmitted, and for a BRA never returned',
  }),
  transitions: Type.Array(TransitionView, { description: "The BRA's moves, oldest first: from and to, who and when, and the reason given" }),
};

/** The get-BRA answer: the BRA's data with the people it names, its review comments and (approved) today's breaches. */
export const BraAnswerView = Type.Object({ ...BraDetailView.properties, ...braAnswerProperties });
export type BraAnswerView = Static<typeof BraAnswerView>;
