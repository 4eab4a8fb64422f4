import { Type, type Static } from 'typebox';
import { DataResponse, FreeText, ListResponse, MessageOnly, Nullable, Timestamp, Uuid, errorResponses } from '../../../platform/http/schemas.js';
import { BRA_READERS, BraParams, ControlView, RiskLevel, ScenarioView, UserRef } from '../bras.schemas.js';

/** A BRA's scenarios (D6.4), ratings (D6.5) and control links (D6.6). */

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
  created_by_user: Nullable(UserRef),
  created_at: Timestamp(),
  superseded_at: Nullable(Timestamp('When a newer rating of the same link and type replaced it; null for current ratings')),
});
export type RatingView = Static<typeof RatingView>;

export const ListRatingsQuery = Type.Object({
  history: Type.Optional(Type.Boolean({ default: false, description: 'true adds the superseded ratings' })),
});

export const LinkControlBody = Type.Object(
  {
    sub_control_id: Uuid('A sub-control of the enterprise library, not archived, not yet linked to this BRA for the same scenario'),
    bra_risk_scenario_id: Type.Optional(
      Nullable(Uuid('A scenario link of this BRA that the control mitigates (400 INVALID_REFERENCE otherwise); absent or null links it to the whole BRA')),
    ),
  },
  { additionalProperties: false, examples: [{ sub_control_id: '3f0b8c1e-52a4-4d7e-9b1a-0c6f2e9d4a10', bra_risk_scenario_id: '9d2f6a3b-1c4e-4b8a-8e7f-5a6b7c8d9e01' }] },
);
export type LinkControlBody = Static<typeof LinkControlBody>;

export const ControlLinkParams = Type.Object({ bra_id: Uuid('The BRA'), link_id: Uuid('The control link of that BRA') });

const tags = ['bras'];
const reads = errorResponses([404]);
const changes = errorResponses([404, 409, 413, 415, 422]);
const CHANGE =
  'Client admins, or the assessor who created the BRA while still assigned (D5); only while draft or in progress (else 409 INVALID_STATE). ' +
  'A draft BRA moves to in_progress (D6.7).';

export const listScenariosSchema = {
  summary: "List a BRA's scenarios",
  description: `${BRA_READERS} Each with its current ratings (null when missing).`,
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
  description: `${BRA_READERS} The current rating of each scenario link and type; history=true adds the superseded ones. Newest first.`,
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
  description: `${BRA_READERS} With the sub-controls' current test results.`,
  operationId: 'bras.control.list',
  tags,
  params: BraParams,
  response: { 200: ListResponse(ControlView), ...reads },
};

export const linkControlSchema = {
  summary: 'Link a sub-control to a BRA or to one of its scenarios',
  description:
    `${CHANGE} With bra_risk_scenario_id the control mitigates that scenario (a scenario link of another BRA: 400 INVALID_REFERENCE); ` +
    'without, it is linked to the whole BRA. The same sub-control twice for the same scenario (or twice BRA-wide): 409 CONFLICT.',
  operationId: 'bras.control.link',
  tags,
  params: BraParams,
  body: LinkControlBody,
  response: { 201: DataResponse(ControlView), ...changes },
};

export const unlinkControlSchema = {
  summary: 'Remove a control link from a BRA',
  description: `${CHANGE} Audited as an update of the BRA. A link of another BRA or an unknown one: 404.`,
  operationId: 'bras.control.unlink',
  tags,
  params: ControlLinkParams,
  response: { 200: MessageOnly, ...errorResponses([404, 409]) },
};
