import { Type, type Static } from 'typebox';
import {
  Abilities,
  CalendarDate,
  DataResponse,
  FreeText,
  Name,
  Nullable,
  PageResponse,
  PaginationQuery,
  Uuid,
  errorResponses,
} from '../../../platform/http/schemas.js';
import { BraAnswerView } from '../answer/answer.schemas.js';
import { BraParams, BraStatus, BraView } from '../bras.schemas.js';

/** The BRAs themselves (4.2): list, create, read and change. */

const Label = (description: string) => Type.String({ minLength: 1, maxLength: 200, description });

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

/** What a creation answers: the BRA's own fields, as the BRA view has them. */
export const CreatedBraView = Type.Pick(BraView, ['id', 'name', 'description', 'legal_entity_id', 'business_unit_id', 'status', 'period', 'assessor', 'start_date', 'created_at', 'updated_at']);

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

/** What a change answers: the fields it may change, and the status and time. */
export const UpdatedBraView = Type.Pick(BraView, ['id', 'name', 'description', 'status', 'period', 'assessor', 'updated_at']);

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

/** The BRA as GET /bras/{id} answers it: the answer, and what the caller may do to it now. */
export const BraReadView = Type.Object({
  ...BraAnswerView.properties,
  abilities: Abilities({
    update: 'Change its fields and content (scenarios, ratings, control links): draft or in progress, by its editors',
    submit: 'Submit it for review',
    approve: 'Approve it',
    return: 'Return it to its assessor',
    cancel: 'Cancel it',
    comment: 'Comment on it (in progress or under review)',
    give_verdict: 'Comment with a verdict (recommend approval or request changes)',
    roll_forward: 'Roll it forward to a new period (approved BRAs)',
    accept_risks: 'Accept, renew or revoke the acceptance of its scenarios above appetite (in progress, under review or approved; client admins)',
  }),
});

export type BraReadView = Static<typeof BraReadView>;

export const getBraSchema = {
  summary: 'Get a BRA with its scenarios, controls and summary',
  description:
    'Readable by client admins, and by assessors and reviewers assigned to its entity or unit (D5). ' +
    "An approved BRA's summary and scenario flags are those of its approval (the appetite pinned by its approval snapshot); " +
    "current_appetite_breaches shows today's.",
  operationId: 'bras.get',
  tags,
  params: BraParams,
  response: { 200: DataResponse(BraReadView), ...errorResponses([404]) },
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
