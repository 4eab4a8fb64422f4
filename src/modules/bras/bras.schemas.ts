import { Type, type Static } from 'typebox';
import {
  CalendarDate,
  DataResponse,
  FreeText,
  Name,
  Nullable,
  PageResponse,
  PaginationQuery,
  Timestamp,
  Uuid,
  errorResponses,
} from '../../platform/http/schemas.js';
import { braAnswerProperties, scenarioAppetiteProperties, summaryAppetiteProperties } from './answer/answer.schemas.js';
import { BRA_STATUSES } from './bras.lifecycle.js';

/** The BRA's own resources (2.1, 4.2); its content is in assessment/content.schemas.ts, its snapshots in history/. */

export const BraStatus = Type.Enum(BRA_STATUSES, {
  description: 'Where the BRA is in its life (3.1, D6.7)',
});
export const RiskLevel = Type.Enum(['Low', 'Medium', 'High', 'Very High'], {
  description: 'The band of the risk score (D6.1): 1–4 Low, 5–9 Medium, 10–15 High, 16–25 Very High',
});

const Label = (description: string) => Type.String({ minLength: 1, maxLength: 200, description });
const NamedRef = (what: string) =>
  Type.Object({ id: Uuid(`The ${what}`), name: Type.String({ description: `Name of the ${what}` }) });

/** The fields of a BRA as lists and the get-BRA show them. */
const braProperties = {
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

/** What a roll-forward carries from the approved BRA: a reference for the assessor, not a rating of this BRA. */
export const PreviousRating = Type.Object(
  {
    impact_score: Type.Integer({ minimum: 1, maximum: 5 }),
    likelihood_score: Type.Integer({ minimum: 1, maximum: 5 }),
    risk_score: Type.Integer({ minimum: 1, maximum: 25 }),
    risk_level: RiskLevel,
  },
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

export const BraDetailView = Type.Object({
  ...braProperties,
  scenarios: Type.Array(DetailScenarioView, { description: 'Newest first' }),
  controls: Type.Array(ControlView, { description: 'Every control link, BRA-wide and per scenario; newest first' }),
  summary: SummaryView,
});
export type BraDetailView = Static<typeof BraDetailView>;

/** The get-BRA answer: the BRA's data with the people it names, its review comments and (approved) today's breaches. */
export const BraAnswerView = Type.Object({ ...BraDetailView.properties, ...braAnswerProperties });
export type BraAnswerView = Static<typeof BraAnswerView>;

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


export const ListBrasQuery = Type.Object({
  status: Type.Optional(BraStatus),
  legal_entity_id: Type.Optional(Uuid('Only BRAs of this legal entity (403 when not assigned to the caller)')),
  business_unit_id: Type.Optional(Uuid('Only BRAs of this business unit (403 when not assigned to the caller)')),
  ...PaginationQuery,
});
export type ListBrasQuery = Static<typeof ListBrasQuery>;

export const CreateBraBody = Type.Object(
  {
    name: Name('Unique within the enterprise (case-insensitive); at most 200 characters'),
    description: Type.Optional(Nullable(FreeText('What the assessment covers; at most 5,000 characters'))),
    legal_entity_id: Uuid('A legal entity of the enterprise (assigned to the caller, for an assessor)'),
    business_unit_id: Type.Optional(Nullable(Uuid('A business unit of that legal entity'))),
    period: Label('Free-text label of the assessment period, at most 200 characters'),
    assessor: Label('Name of the assessor, at most 200 characters'),
    start_date: Type.Optional(Nullable(CalendarDate('When the assessment starts'))),
  },
  { additionalProperties: false },
);
export type CreateBraBody = Static<typeof CreateBraBody>;

export const CreatedBraView = Type.Object({
  id: braProperties.id,
  name: braProperties.name,
  description: braProperties.description,
  legal_entity_id: braProperties.legal_entity_id,
  business_unit_id: braProperties.business_unit_id,
  status: BraStatus,
  period: braProperties.period,
  assessor: braProperties.assessor,
  start_date: braProperties.start_date,
  created_at: braProperties.created_at,
  updated_at: braProperties.updated_at,
});

// legal_entity_id, business_unit_id and status are not members: sending them is a 422 (D6.7).
export const UpdateBraBody = Type.Object(
  {
    name: Type.Optional(Name('Unique within the enterprise (case-insensitive); at most 200 characters')),
    description: Type.Optional(Nullable(FreeText('What the assessment covers; empty or null clears it'))),
    period: Type.Optional(Label('Free-text label of the assessment period, at most 200 characters')),
    assessor: Type.Optional(Label('Name of the assessor, at most 200 characters')),
  },
  { additionalProperties: false },
);
export type UpdateBraBody = Static<typeof UpdateBraBody>;

export const UpdatedBraView = Type.Object({
  id: braProperties.id,
  name: braProperties.name,
  description: braProperties.description,
  status: BraStatus,
  period: braProperties.period,
  assessor: braProperties.assessor,
  updated_at: braProperties.updated_at,
});

const tags = ['bras'];

export const listBrasSchema = {
  summary: 'List BRAs',
  description:
    'Client admins see every BRA of the enterprise; assessors and reviewers those of their assigned entities and units (D5). ' +
    'A filter naming an entity or unit unknown in the enterprise is 400 INVALID_REFERENCE, one not assigned to the caller 403. Newest first.',
  operationId: 'bras.list',
  tags,
  querystring: ListBrasQuery,
  response: { 200: PageResponse(BraView), ...errorResponses([]) },
};

export const createBraSchema = {
  summary: 'Create a BRA',
  description:
    'Client admins, and assessors for their assigned entities (4.2 rules 1–4). The BRA starts as draft and its `created` snapshot is taken in the same transaction.',
  operationId: 'bras.create',
  tags,
  body: CreateBraBody,
  response: { 201: DataResponse(CreatedBraView), ...errorResponses([409, 413, 415, 422]) },
};

export const getBraSchema = {
  summary: 'Get a BRA with its scenarios, controls and summary',
  description:
    'Readable by client admins, and by assessors and reviewers assigned to its entity or unit (D5). ' +
    "An approved BRA's summary and scenario flags are those of its approval (the appetite pinned by its approval snapshot); " +
    "current_appetite_breaches shows today's.",
  operationId: 'bras.get',
  tags,
  params: BraParams,
  response: { 200: DataResponse(BraAnswerView), ...errorResponses([404]) },
};

export const updateBraSchema = {
  summary: 'Change a BRA',
  description:
    'Only while draft or in progress (4.2); by client admins, or by the assessor who created it while still assigned. ' +
    'legal_entity_id, business_unit_id and status cannot be sent (422).',
  operationId: 'bras.update',
  tags,
  params: BraParams,
  body: UpdateBraBody,
  response: { 200: DataResponse(UpdatedBraView), ...errorResponses([404, 409, 413, 415, 422]) },
};
