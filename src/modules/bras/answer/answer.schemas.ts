import { Type, type Static } from 'typebox';
import { Nullable, Timestamp, Uuid } from '../../../platform/http/schemas.js';

/**
 * What the get-BRA answer adds to the BRA's data (issue 35): scenarios above appetite by name, the people it
 * names by name, its review comments' count and latest verdicts. Kept apart from bras.schemas.ts, which
 * spreads these members into its shapes (this file imports nothing of it).
 */

/** A user as a BRA answer names them, so a reader needs no user lookup they may not be allowed. */
export const UserRef = Type.Object(
  { id: Uuid('The user'), full_name: Type.String({ description: 'Their full name' }) },
  { description: 'The user named by the sibling id member, with their name', examples: [{ id: '2b7e4c1a-9d3f-4a6b-8c2e-5f1a0b3c4d5e', full_name: 'Olivia Hart' }] },
);
export type UserRef = Static<typeof UserRef>;

export const AppetiteBreachView = Type.Object(
  {
    id: Uuid('The scenario link'),
    risk_scenario_id: Uuid('The catalogue scenario'),
    name: Type.String({ description: 'Name of the catalogue scenario' }),
    residual_score: Type.Integer({ minimum: 1, maximum: 25, description: 'Its current residual risk score' }),
    threshold: Type.Integer({ description: 'The appetite threshold it exceeds' }),
  },
  {
    description: 'An included scenario whose residual risk score exceeds the threshold',
    examples: [{ id: '9d2f6a3b-1c4e-4b8a-8e7f-5a6b7c8d9e01', risk_scenario_id: '4c8e1f2a-7b3d-4e5f-9a0b-1c2d3e4f5a6b', name: 'Card-not-present fraud', residual_score: 12, threshold: 9 }],
  },
);

/** Members of each scenario of the get-BRA (and of a snapshot's content). */
export const scenarioAppetiteProperties = {
  applicable_threshold: Nullable(
    Type.Integer({
      description:
        "The threshold of the BRA's applicable appetite the scenario is judged against (for an approved BRA, the one pinned by its approval snapshot); null only in content without an appetite",
    }),
  ),
  above_appetite: Nullable(
    Type.Boolean({ description: 'Its residual risk score exceeds applicable_threshold; null while it has no residual rating, and for an excluded scenario' }),
  ),
};

/** The member the summary gains. */
export const summaryAppetiteProperties = {
  scenarios_above_appetite: Type.Array(AppetiteBreachView, {
    description: 'The scenarios risks_above_appetite counts, by name: highest residual score first, then by name',
  }),
};

export const CommentVerdict = Type.Enum(['recommend_approval', 'changes_requested'], {
  description: "A reviewer's opinion on the BRA as it stands",
});

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
