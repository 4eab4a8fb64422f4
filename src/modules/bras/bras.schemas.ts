import { Type, type Static } from 'typebox';
import { CalendarDate, Nullable, Timestamp, Uuid } from '../../platform/http/schemas.js';
import { BRA_STATUSES } from './bras.lifecycle.js';
import { RiskAcceptanceView } from './acceptance/acceptances.schemas.js';

/**
 * A BRA on the wire (2.1): the shapes every part of the module shares, from its status to the get-BRA data a
 * snapshot also stores. Each room's routes have their own schemas (assessment/, review/, history/, answer/).
 */

export const BraStatus = Type.Enum(BRA_STATUSES, {
  description: 'Where the BRA is in its life (3.1, D6.7)',
});
export const RiskLevel = Type.Enum(['Low', 'Medium', 'High', 'Very High'], {
  description: 'The band of the risk score (D6.1): 1–4 Low, 5–9 Medium, 10–15 High, 16–25 Very High',
});

const NamedRef = (what: string) =>
  Type.Object({ id: Uuid(`The ${what}`), name: Type.String({ description: `Name of the ${what}` }) });

/** A user as an answer names them (platform/http/schemas.ts), re-exported for the module's shapes. */
export { UserRef } from '../../platform/http/schemas.js';

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

/** The fields of a BRA as lists and the get-BRA show them. */
export const braProperties = {
  id: Uuid(),
  name: Type.String({ description: 'Unique within the enterprise (case-insensitive)' }),
  description: Nullable(Type.String({ description: 'What the assessment covers' })),
  legal_entity_id: Uuid('The legal entity assessed; immutable'),
  business_unit_id: Nullable(Uuid('The business unit assessed, of that legal entity; immutable')),
  status: BraStatus,
  period: Type.String({ description: 'Free-text label of the assessment period' }),
  assessor: Type.String({ description: 'Name of the assessor' }),
  start_date: Nullable(CalendarDate('When the assessment started')),
  completion_date: Nullable(CalendarDate('The UTC date of approval')),
  created_by: Nullable(Uuid('The user who created the BRA (an assessor may change only the BRAs they created)')),
  created_at: Timestamp(),
  updated_at: Timestamp('Last change of the BRA or of its scenarios, ratings or control links'),
  legal_entity: NamedRef('legal entity'),
  business_unit: Nullable(NamedRef('business unit')),
  approved_by: Nullable(Uuid('The client admin who approved it')),
  approved_at: Nullable(Timestamp()),
  final_comment: Nullable(Type.String({ description: 'Comment given on approval' })),
  snapshot_id: Nullable(Uuid('The snapshot taken at approval')),
  cancelled_by: Nullable(Uuid('The client admin who cancelled it')),
  cancelled_at: Nullable(Timestamp()),
  cancellation_reason: Nullable(Type.String({ description: 'Reason given on cancellation' })),
  rolled_from_bra_id: Nullable(Uuid('The approved BRA this one was rolled forward from (POST /bras/{id}/roll-forward); null otherwise')),
};

export const BraView = Type.Object(braProperties);
export type BraView = Static<typeof BraView>;

export const RatingObject = Type.Object({
  impact_score: Type.Integer({ minimum: 1, maximum: 5, description: 'Impact, 1 to 5' }),
  likelihood_score: Type.Integer({ minimum: 1, maximum: 5, description: 'Likelihood, 1 to 5' }),
  risk_score: Type.Integer({ minimum: 1, maximum: 25, description: 'impact × likelihood' }),
  risk_level: RiskLevel,
  justification: Nullable(Type.String({ description: 'Why these scores, as the rater wrote it' })),
});

const ratingScores = {
  impact_score: Type.Integer({ minimum: 1, maximum: 5 }),
  likelihood_score: Type.Integer({ minimum: 1, maximum: 5 }),
  risk_score: Type.Integer({ minimum: 1, maximum: 25 }),
  risk_level: RiskLevel,
};

/** A rating's scores alone (no justification): what a diff and a scenario's trend compare. */
export const RatingScores = Type.Object(ratingScores);

/** What a roll-forward carries from the approved BRA: a reference for the assessor, not a rating of this BRA. */
export const PreviousRating = Type.Object(
  ratingScores,
  {
    description:
      'The residual rating this scenario had in the approved BRA this one was rolled forward from; null otherwise. A reference only: the summary, approval and appetite ignore it',
  },
);

export const ScenarioView = Type.Object({
  id: Uuid('The scenario link (what ratings and mitigation actions refer to)'),
  risk_scenario_id: Uuid('The catalogue scenario'),
  name: Type.String({ description: 'Name of the catalogue scenario' }),
  category: Type.String({ description: 'Category of the catalogue scenario' }),
  included: Type.Boolean({ description: 'Excluded scenarios need no ratings and are not counted in the summary' }),
  inherent_rating: Nullable(RatingObject),
  residual_rating: Nullable(RatingObject),
  previous_residual_rating: Nullable(PreviousRating),
});
export type ScenarioView = Static<typeof ScenarioView>;

export const ControlView = Type.Object({
  id: Uuid('The control link'),
  bra_risk_scenario_id: Nullable(Uuid('The scenario link this control mitigates; null for a control linked to the whole BRA')),
  key_control_id: Uuid(),
  key_control_name: Type.String(),
  sub_control_id: Uuid(),
  sub_control_name: Type.String(),
  tod: Nullable(Type.String({ description: 'Current Test of Design of the sub-control (A to E), null while untested' })),
  toe: Nullable(Type.String({ description: 'Current Test of Effectiveness of the sub-control (1 to 5), null while untested' })),
  total_effectiveness: Nullable(Type.String({ description: 'Current total effectiveness (3.5), null while ToD or ToE is unset' })),
});
export type ControlView = Static<typeof ControlView>;

export const Effectiveness = Type.Enum(['Highly Effective', 'Effective', 'Moderately Effective', 'Less Effective', 'Not Effective'], {
  description: 'A total effectiveness label (3.5)',
});

/** A scenario as the get-BRA shows it: with the controls linked to it and their weakest effectiveness. */
export const DetailScenarioView = Type.Object({
  ...ScenarioView.properties,
  ...scenarioAppetiteProperties,
  controls: Type.Array(ControlView, { description: 'The controls linked to this scenario (BRA-wide links are not repeated here), newest first' }),
  control_effectiveness: Nullable(
    Type.Enum([...Effectiveness.enum], {
      description:
        'The weakest total effectiveness among the controls linked to this scenario; null when none of them is assessed (or none is linked)',
    }),
  ),
  acceptance: Type.Optional(
    Type.Union([RiskAcceptanceView, Type.Null()], {
      description:
        'The risk acceptance in force today (issue 48): the scenario is above appetite, accepted until its expires_on; null when none. ' +
        'A snapshot carries those in force when it was taken (absent from snapshots taken before acceptances existed).',
    }),
  ),
});
export type DetailScenarioView = Static<typeof DetailScenarioView>;

export const SummaryView = Type.Object({
  total_scenarios: Type.Integer({ description: 'Included scenarios' }),
  assessed_scenarios: Type.Integer({ description: 'Included scenarios with both an inherent and a residual rating' }),
  risks_above_appetite: Type.Integer({
    description: "Included scenarios whose residual risk score exceeds the threshold of the BRA's applicable appetite (D6.9)",
  }),
  completion_percentage: Type.Integer({ description: 'round(100 × assessed / total); 0 when total is 0' }),
  ...summaryAppetiteProperties,
});

/** An evidence file as a snapshot and the report list it: enough to ask for it and to check it. */
export const EvidenceRef = Type.Object({
  id: Uuid('The evidence file (GET /evidence/{id}/content)'),
  record_type: Type.Enum(['bra', 'bra_scenario', 'mitigation_action', 'sub_control_test']),
  record_id: Uuid('The record it is attached to'),
  name: Type.String(),
  media_type: Type.String(),
  size_bytes: Type.Integer({ minimum: 0 }),
  sha256: Type.String({ description: 'Hex SHA-256 of the content as uploaded' }),
  created_at: Timestamp(),
});
export type EvidenceRef = Static<typeof EvidenceRef>;

export const BraDetailView = Type.Object({
  ...braProperties,
  scenarios: Type.Array(DetailScenarioView, { description: 'Newest first' }),
  controls: Type.Array(ControlView, { description: 'Every control link, BRA-wide and per scenario; newest first' }),
  summary: SummaryView,
  evidence: Type.Optional(
    Type.Array(EvidenceRef, {
      description:
        "In a snapshot (issue 48): the evidence files then attached to the BRA, its scenarios and its actions, oldest first (absent from snapshots taken before). The get-BRA leaves it out: GET /evidence lists a record's files.",
    }),
  ),
});
export type BraDetailView = Static<typeof BraDetailView>;

export const BraParams = Type.Object({ bra_id: Uuid('The BRA') });

/** Who reads a BRA and what it holds, as the OpenAPI descriptions say it. */
export const BRA_READERS = 'Readable by client admins, and by assessors and reviewers assigned to the BRA (D5).';

export const Methodology = Type.Object(
  {
    risk_bands: Type.Array(
      Type.Object({ level: RiskLevel, min: Type.Integer(), max: Type.Integer() }),
      { description: 'The score bands of D6.1 the ratings were levelled with' },
    ),
    appetite: Nullable(
      Type.Object(
        {
          id: Uuid('The appetite record (it may have changed or been deleted since)'),
          risk_level: RiskLevel,
          threshold_value: Type.Integer({ description: 'The threshold risks_above_appetite was counted against' }),
          legal_entity_id: Nullable(Uuid()),
          business_unit_id: Nullable(Uuid()),
        },
        { description: 'The applicable appetite (D6.9) as it was when the snapshot was taken' },
      ),
    ),
  },
  { description: 'What the summary was computed under, pinned with the snapshot' },
);
