import { Type, type Static } from 'typebox';
import { DataResponse, FreeText, ListResponse, Message, Nullable, Timestamp, Uuid, errorResponses } from '../../platform/http/schemas.js';
import { BraDetailView, BraParams, ControlView, RiskLevel, ScenarioView } from './bras.schemas.js';

/** A BRA's scenarios (D6.4), ratings (D6.5), control links (D6.6) and snapshots (D6.10). */

const Score = (what: string) => Type.Integer({ minimum: 1, maximum: 5, description: `${what}, an integer 1 to 5` });
const RatingType = Type.Enum(['inherent', 'residual'], { description: 'Before (inherent) or after (residual) controls' });

export const AddScenarioBody = Type.Object(
  {
    risk_scenario_id: Uuid('A scenario of the enterprise catalogue, not yet in this BRA'),
    included: Type.Optional(Type.Boolean({ default: true, description: 'Whether the scenario is assessed (default true)' })),
  },
  { additionalProperties: false },
);
export type AddScenarioBody = Static<typeof AddScenarioBody>;

export const UpdateScenarioBody = Type.Object(
  { included: Type.Boolean({ description: 'Excluded scenarios need no ratings for approval' }) },
  { additionalProperties: false },
);

export const ScenarioLinkParams = Type.Object({ bra_id: Uuid('The BRA'), link_id: Uuid('The scenario link of that BRA') });

export const RecordRatingBody = Type.Object(
  {
    bra_risk_scenario_id: Uuid('A scenario link of this BRA'),
    rating_type: RatingType,
    impact_score: Score('Impact'),
    likelihood_score: Score('Likelihood'),
    justification: Type.Optional(Nullable(FreeText('Why these scores, at most 5,000 characters'))),
  },
  { additionalProperties: false },
);
export type RecordRatingBody = Static<typeof RecordRatingBody>;

export const RatingView = Type.Object({
  id: Uuid(),
  bra_risk_scenario_id: Uuid('The scenario link rated'),
  rating_type: RatingType,
  impact_score: Type.Integer(),
  likelihood_score: Type.Integer(),
  risk_score: Type.Integer({ description: 'impact × likelihood (D6.1)' }),
  risk_level: RiskLevel,
  justification: Nullable(Type.String()),
  created_by: Nullable(Uuid('Who recorded it')),
  created_at: Timestamp(),
  superseded_at: Nullable(Timestamp('When a newer rating of the same link and type replaced it; null for current ratings')),
});
export type RatingView = Static<typeof RatingView>;

export const ListRatingsQuery = Type.Object({
  history: Type.Optional(Type.Boolean({ default: false, description: 'true adds the superseded ratings' })),
});

export const LinkControlBody = Type.Object(
  { sub_control_id: Uuid('A sub-control of the enterprise library, not archived, not yet linked to this BRA') },
  { additionalProperties: false },
);

export const SnapshotSummaryView = Type.Object({
  id: Uuid(),
  kind: Type.Enum(['created', 'approved'], { description: 'Taken at creation or at approval' }),
  created_at: Timestamp(),
  created_by: Nullable(Uuid('Who created or approved the BRA')),
});

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

export const SnapshotView = Type.Object({
  ...SnapshotSummaryView.properties,
  content: BraDetailView,
  methodology: Methodology,
});

export const SnapshotParams = Type.Object({ bra_id: Uuid('The BRA'), snapshot_id: Uuid('A snapshot of that BRA') });

const tags = ['bras'];
const reads = errorResponses([404]);
const changes = errorResponses([404, 409, 413, 415, 422]);
const READ = 'Readable by client admins, and by assessors and reviewers assigned to the BRA (D5).';
const CHANGE =
  'Client admins, or the assessor who created the BRA while still assigned (D5); only while draft or in progress (else 409 INVALID_STATE). ' +
  'A draft BRA moves to in_progress (D6.7).';

export const listScenariosSchema = {
  summary: "List a BRA's scenarios",
  description: `${READ} Each with its current ratings (null when missing).`,
  operationId: 'bras.scenario.list',
  tags,
  params: BraParams,
  response: { 200: ListResponse(ScenarioView), ...reads },
};

export const addScenarioSchema = {
  summary: 'Add a catalogue scenario to a BRA',
  description: `${CHANGE} The same scenario twice: 409 CONFLICT.`,
  operationId: 'bras.scenario.add',
  tags,
  params: BraParams,
  body: AddScenarioBody,
  response: { 201: DataResponse(ScenarioView), ...changes },
};

export const updateScenarioSchema = {
  summary: 'Include or exclude a scenario of a BRA',
  description: CHANGE,
  operationId: 'bras.scenario.update',
  tags,
  params: ScenarioLinkParams,
  body: UpdateScenarioBody,
  response: { 200: DataResponse(ScenarioView), ...changes },
};

export const listRatingsSchema = {
  summary: "List a BRA's ratings",
  description: `${READ} The current rating of each scenario link and type; history=true adds the superseded ones. Newest first.`,
  operationId: 'bras.rating.list',
  tags,
  params: BraParams,
  querystring: ListRatingsQuery,
  response: { 200: ListResponse(RatingView), ...reads },
};

export const recordRatingSchema = {
  summary: 'Record a rating of a scenario of a BRA',
  description: `${CHANGE} A new rating of the same scenario link and type supersedes the earlier one, which is kept.`,
  operationId: 'bras.rating.create',
  tags,
  params: BraParams,
  body: RecordRatingBody,
  response: { 201: DataResponse(RatingView), ...changes },
};

export const listControlsSchema = {
  summary: "List a BRA's linked controls",
  description: `${READ} With the sub-controls' current test results.`,
  operationId: 'bras.control.list',
  tags,
  params: BraParams,
  response: { 200: ListResponse(ControlView), ...reads },
};

export const linkControlSchema = {
  summary: 'Link a sub-control to a BRA',
  description: `${CHANGE} The same sub-control twice: 409 CONFLICT.`,
  operationId: 'bras.control.link',
  tags,
  params: BraParams,
  body: LinkControlBody,
  response: { 201: DataResponse(ControlView), ...changes },
};

export const listSnapshotsSchema = {
  summary: "List a BRA's snapshots",
  description: `${READ} Newest first.`,
  operationId: 'bras.snapshot.list',
  tags,
  params: BraParams,
  response: { 200: ListResponse(SnapshotSummaryView), ...reads },
};

export const getSnapshotSchema = {
  summary: 'Get a snapshot of a BRA',
  description: `${READ} The get-BRA data as it was, and the methodology (risk bands, applicable appetite) it was computed under.`,
  operationId: 'bras.snapshot.get',
  tags,
  params: SnapshotParams,
  response: { 200: Type.Object({ data: SnapshotView, message: Type.Optional(Message) }), ...reads },
};
