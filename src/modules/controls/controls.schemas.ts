import { Type } from 'typebox';
import { Abilities, CalendarDate, DataResponse, FreeText, IdParams, MessageOnly, Name, Nullable, PageResponse, PaginationQuery, Timestamp, Uuid, errorResponses } from '../../platform/http/schemas.js';
import { EFFECTIVENESS_LABELS, TOD_LEVELS, TOE_LEVELS } from './effectiveness-matrix.js';
import { TESTING_FREQUENCIES } from '../../platform/db/tables/controls.js';
import { MAX_CURSOR_LENGTH } from '../../platform/http/keyset-cursor.js';

const TAGS = ['controls'];

const Tod = (description = 'Test of Design: A (Excellent) to E (Inadequate)') => Type.Enum(TOD_LEVELS, { description });
const Toe = (description = 'Test of Effectiveness: 1 (Highly Effective) to 5 (Ineffective)') => Type.Enum(TOE_LEVELS, { description });
const Effectiveness = (description: string) => Type.Enum(EFFECTIVENESS_LABELS, { description });
const TOTAL_EFFECTIVENESS = 'Computed by the service from tod and toe (3.5); null while either is unset (D7.1)';

const TestingFrequency = (description: string) => Type.Enum(TESTING_FREQUENCIES, { description });
const SetTestingFrequency = () =>
  Type.Optional(Nullable(TestingFrequency('How often it is to be tested: monthly, quarterly, semi_annual or annual; null: no schedule')));

const Count = (description: string) => Type.Integer({ minimum: 0, description });

const Archived = Type.Optional(
  Type.Boolean({ default: false, description: 'true also lists archived items; false (default) lists only active ones' }),
);

// ---- key controls ---------------------------------------------------------------------------------

export const NestedSubControl = Type.Object({
  id: Uuid(),
  name: Type.String(),
  tod: Nullable(Tod()),
  toe: Nullable(Toe()),
  total_effectiveness: Nullable(Effectiveness(TOTAL_EFFECTIVENESS)),
  archived: Type.Boolean({ description: 'Listed only with archived=true' }),
});

export const KeyControlView = Type.Object({
  id: Uuid(),
  name: Type.String({ description: 'Name of the key control' }),
  description: Nullable(Type.String()),
  archived: Type.Boolean(),
  created_at: Timestamp(),
  updated_at: Timestamp(),
});

export const KeyControlListItem = Type.Object({
  ...KeyControlView.properties,
  sub_controls: Type.Array(NestedSubControl, {
    description: 'Its sub-controls, newest first; archived ones only with archived=true',
  }),
});

export const KeyControlParams = IdParams('key_control_id');

export const listKeyControlsSchema = {
  summary: 'List key controls with their sub-controls',
  description: "The enterprise's control library, newest first, every member role (D5); archived key controls and sub-controls only with archived=true.",
  operationId: 'controls.key_control.list',
  tags: TAGS,
  querystring: Type.Object({ archived: Archived, ...PaginationQuery }),
  response: { 200: PageResponse(KeyControlListItem), ...errorResponses([]) },
};

export const CreateKeyControlBody = Type.Object(
  {
    name: Name('Name of the key control; at most 200 characters'),
    description: Type.Optional(Nullable(FreeText('What the control achieves; at most 5,000 characters'))),
  },
  { additionalProperties: false },
);

export const createKeyControlSchema = {
  summary: 'Create a key control',
  description: 'Client admins only (D5).',
  operationId: 'controls.key_control.create',
  tags: TAGS,
  body: CreateKeyControlBody,
  response: { 201: DataResponse(KeyControlView), ...errorResponses([413, 415, 422]) },
};

export const UpdateKeyControlBody = Type.Object(
  {
    name: Type.Optional(Name('New name; at most 200 characters')),
    description: Type.Optional(Nullable(FreeText('New description (null clears it); at most 5,000 characters'))),
  },
  { additionalProperties: false },
);

export const updateKeyControlSchema = {
  summary: 'Rename or describe a key control',
  description: 'Client admins only (D5, D7.2). An archived key control cannot be changed (409 INVALID_STATE).',
  operationId: 'controls.key_control.update',
  tags: TAGS,
  params: KeyControlParams,
  body: UpdateKeyControlBody,
  response: { 200: DataResponse(KeyControlView), ...errorResponses([404, 409, 413, 415, 422]) },
};

export const archiveKeyControlSchema = {
  summary: 'Archive a key control and its sub-controls',
  description: 'Client admins only (D5, D7.2). Archives its sub-controls in the same transaction; archiving again changes nothing.',
  operationId: 'controls.key_control.archive',
  tags: TAGS,
  params: KeyControlParams,
  response: { 200: MessageOnly, ...errorResponses([404]) },
};

// ---- sub-controls ---------------------------------------------------------------------------------

export const SubControlView = Type.Object({
  id: Uuid(),
  key_control_id: Uuid('Parent key control'),
  name: Type.String(),
  description: Nullable(Type.String()),
  tod: Nullable(Tod()),
  toe: Nullable(Toe()),
  total_effectiveness: Nullable(Effectiveness(TOTAL_EFFECTIVENESS)),
  testing_date: Nullable(CalendarDate('When it was last tested')),
  tested_by: Nullable(Type.String({ description: 'Who tested it' })),
  evidence_notes: Nullable(Type.String()),
  tod_justification: Nullable(Type.String()),
  toe_justification: Nullable(Type.String()),
  testing_frequency: Nullable(TestingFrequency('How often it is to be tested; null: no schedule')),
  next_test_due: Nullable(
    CalendarDate(
      'When its next test is due, computed: the last testing_date plus the frequency (a month end stays in its month); ' +
        'the day it was created for one never tested (due at once); null without a frequency. Its test-recorders are reminded',
    ),
  ),
  archived: Type.Boolean(),
  created_at: Timestamp(),
  updated_at: Timestamp(),
});

export const SubControlParams = IdParams('sub_control_id');

/** The longest name-or-description search, and the largest page of the sub-control list. */
export const SUB_CONTROL_SEARCH_MAX = 200;
export const SUB_CONTROL_PAGE_MAX = 500;

export const SubControlListQuery = Type.Object({
  key_control_id: Type.Optional(Uuid('Only the sub-controls of this key control')),
  archived: Archived,
  tod: Type.Optional(Tod('Only those with this Test of Design (a heat-map row)')),
  toe: Type.Optional(Toe('Only those with this Test of Effectiveness (a heat-map column)')),
  total_effectiveness: Type.Optional(Effectiveness('Only those with this total effectiveness (an effectiveness count)')),
  not_assessed: Type.Optional(
    Type.Boolean({ description: 'true: only those whose ToD or ToE is unset (the not_assessed count); false: only assessed ones' }),
  ),
  legal_entity_id: Type.Optional(Uuid('Only sub-controls linked to BRAs of this legal entity (as the effectiveness summary)')),
  business_unit_id: Type.Optional(Uuid('Only sub-controls linked to BRAs of this business unit')),
  bra_id: Type.Optional(Uuid('Only sub-controls linked to this BRA')),
  q: Type.Optional(
    Type.String({
      maxLength: SUB_CONTROL_SEARCH_MAX,
      description: 'Only those whose name or description contains this text, case-insensitively (trimmed; empty: no search)',
    }),
  ),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: SUB_CONTROL_PAGE_MAX,
      description: `At most this many rows (1 to ${SUB_CONTROL_PAGE_MAX}), and next_cursor in the answer. Without it the list is whole, as the interface has it`,
    }),
  ),
  cursor: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: MAX_CURSOR_LENGTH,
      description: "With limit: the previous page's next_cursor, for the rows after it. Opaque; valid only with the same filters, else 400",
    }),
  ),
});

export const SubControlList = Type.Object({
  data: Type.Array(SubControlView),
  next_cursor: Type.Optional(
    Nullable(
      Type.String({
        description: 'Only with limit: the cursor of the next page; null when this page is the last',
        examples: ['eyJhdCI6IjIwMjYtMDMtMDJUMDk6MzA6MDAuMDAwMDAwWiIsImlkIjoiM2Y2YzJhMWUtOGI0ZC00YzdhLTllMmYtNWExYjNjNGQ1ZTZmIiwiYiI6IkpkM2txMFg5YTdiTG1RMnMifQ'],
      }),
    ),
  ),
});

export const listSubControlsSchema = {
  summary: 'List sub-controls',
  description:
    'Every member role (D5); newest first; archived ones only with archived=true. A key_control_id that is not of the enterprise is 400 INVALID_REFERENCE. ' +
    'The drill-down filters list exactly what a heat-map cell (its `filter`) or an effectiveness count covers: tod and toe, total_effectiveness, ' +
    'not_assessed, and the scope filters legal_entity_id, business_unit_id and bra_id with the same rules as the effectiveness summary ' +
    '(an id not of the enterprise is 400 INVALID_REFERENCE; an entity, unit or BRA not assigned to an assessor or reviewer is 403). ' +
    'Additive: q searches names and descriptions; limit pages the list by keyset (newest first, id breaking ties) and adds next_cursor, ' +
    'which the next request passes as cursor with the same filters. Without limit the answer is the whole list with only data.',
  operationId: 'controls.sub_control.list',
  tags: TAGS,
  querystring: SubControlListQuery,
  response: { 200: SubControlList, ...errorResponses([]) },
};

export const CreateSubControlBody = Type.Object(
  {
    key_control_id: Uuid('Parent key control (not archived)'),
    name: Name('Name of the sub-control; at most 200 characters'),
    description: Type.Optional(Nullable(FreeText('What is tested; at most 5,000 characters'))),
    tod: Type.Optional(Nullable(Tod())),
    toe: Type.Optional(Nullable(Toe())),
    testing_frequency: SetTestingFrequency(),
  },
  { additionalProperties: false, description: 'total_effectiveness is computed, never sent (422)' },
);

export const createSubControlSchema = {
  summary: 'Create a sub-control',
  description:
    'Client admins only (D5). total_effectiveness is computed from tod and toe (3.5); sending it is a 422. An unknown key_control_id is 400 INVALID_REFERENCE, an archived one 409 INVALID_STATE.',
  operationId: 'controls.sub_control.create',
  tags: TAGS,
  body: CreateSubControlBody,
  response: { 201: DataResponse(SubControlView), ...errorResponses([409, 413, 415, 422]) },
};

export const UpdateSubControlBody = Type.Object(
  {
    tod: Type.Optional(Nullable(Tod('Test of Design A to E; null clears it'))),
    toe: Type.Optional(Nullable(Toe('Test of Effectiveness 1 to 5; null clears it'))),
    testing_date: Type.Optional(Nullable(CalendarDate('When it was tested (YYYY-MM-DD)'))),
    tested_by: Type.Optional(Nullable(Name('Who tested it; at most 200 characters'))),
    evidence_notes: Type.Optional(Nullable(FreeText('Evidence of the test; at most 5,000 characters'))),
    tod_justification: Type.Optional(Nullable(FreeText('Why this ToD; at most 5,000 characters'))),
    toe_justification: Type.Optional(Nullable(FreeText('Why this ToE; at most 5,000 characters'))),
    testing_frequency: SetTestingFrequency(),
  },
  { additionalProperties: false, description: 'Test results and the testing schedule; total_effectiveness is computed, never sent (422)' },
);

export const updateSubControlSchema = {
  summary: 'Record test results of a sub-control',
  description:
    'Client admins and assessors (D5). The service recomputes total_effectiveness (3.5). An archived sub-control cannot be changed (409 INVALID_STATE).',
  operationId: 'controls.sub_control.update',
  tags: TAGS,
  params: SubControlParams,
  body: UpdateSubControlBody,
  response: { 200: DataResponse(SubControlView), ...errorResponses([404, 409, 413, 415, 422]) },
};

export const archiveSubControlSchema = {
  summary: 'Archive a sub-control',
  description: 'Client admins only (D5, D7.2). Archiving again changes nothing.',
  operationId: 'controls.sub_control.archive',
  tags: TAGS,
  params: SubControlParams,
  response: { 200: MessageOnly, ...errorResponses([404]) },
};

// ---- test records ----------------------------------------------------------------------------------

export const TestRecordView = Type.Object({
  id: Uuid(),
  sub_control_id: Uuid(),
  source: Type.Enum(['baseline', 'create', 'import', 'test', 'update'], {
    description:
      'How the result was entered: test (POST .../tests), update (a PATCH that changed tod, toe or testing_date), create (a sub-control created with a result), import (POST /controls/import), baseline (a result entered before test records existed)',
  }),
  tod: Nullable(Tod()),
  toe: Nullable(Toe()),
  total_effectiveness: Nullable(Effectiveness(TOTAL_EFFECTIVENESS)),
  testing_date: Nullable(CalendarDate('When it was tested')),
  tested_by: Nullable(Type.String({ description: 'Who tested it' })),
  evidence_notes: Nullable(Type.String()),
  tod_justification: Nullable(Type.String()),
  toe_justification: Nullable(Type.String()),
  recorded_at: Timestamp('When the result was entered'),
  recorded_by: Nullable(Uuid('Who entered it; null for baseline records')),
  recorded_by_user: Nullable(Type.Object({ id: Uuid(), full_name: Type.String() }, { description: 'Who entered it, by name' })),
});

export const RecordTestBody = Type.Object(
  {
    tod: Tod(),
    toe: Toe(),
    testing_date: CalendarDate('When it was tested (YYYY-MM-DD)'),
    tested_by: Name('Who tested it; at most 200 characters'),
    evidence_notes: Type.String({ minLength: 1, maxLength: 5000, description: 'Evidence of the test; at most 5,000 characters' }),
    tod_justification: Type.Optional(Nullable(FreeText('Why this ToD; at most 5,000 characters'))),
    toe_justification: Type.Optional(Nullable(FreeText('Why this ToE; at most 5,000 characters'))),
  },
  {
    additionalProperties: false,
    description: 'One complete test. total_effectiveness is computed, never sent (422); justifications left out are cleared.',
    examples: [
      {
        tod: 'B',
        toe: '2',
        testing_date: '2026-11-20',
        tested_by: 'Internal Audit — R. Osei',
        evidence_notes: 'Sample of 25 access reviews; all signed off within 10 days.',
        toe_justification: 'Two reviews signed late, within tolerance.',
      },
    ],
  },
);

export const recordTestSchema = {
  summary: 'Record a complete test of a sub-control',
  description:
    'Client admins and assessors (D5). The test becomes the sub-control\'s current result (total_effectiveness recomputed from the 3.5 matrix; ' +
    'the justifications it leaves out are cleared) and is appended to its history, which cannot be changed. An archived sub-control is 409 INVALID_STATE.',
  operationId: 'controls.sub_control.test.record',
  tags: TAGS,
  params: SubControlParams,
  body: RecordTestBody,
  response: { 201: DataResponse(TestRecordView), ...errorResponses([404, 409, 413, 415, 422]) },
};

export const listTestsSchema = {
  summary: "List a sub-control's test history",
  description:
    'Every member role (D5). Newest first, paginated: every complete test, every PATCH that changed tod, toe or testing_date, and the result a sub-control was created with.',
  operationId: 'controls.sub_control.test.list',
  tags: TAGS,
  params: SubControlParams,
  querystring: Type.Object({ ...PaginationQuery }),
  response: { 200: PageResponse(TestRecordView), ...errorResponses([404]) },
};

export const SubControlDetailView = Type.Object({
  ...SubControlView.properties,
  tests_count: Count('Records in its test history'),
  latest_test: Nullable(TestRecordView),
  previous_result: Nullable(TestRecordView),
});

/** A sub-control as GET /controls/sub-controls/{id} answers it, with what the caller may do to it now. */
export const SubControlReadView = Type.Object({
  ...SubControlDetailView.properties,
  abilities: Abilities({
    record_test: 'Record a test (POST …/tests) or its results (PATCH): client admins and assessors, while not archived',
    archive: 'Archive it: client admins, while not archived',
  }),
});

export const getSubControlSchema = {
  summary: 'Get a sub-control with its previous result',
  description:
    'Every member role (D5). The current result, the latest record of its test history (latest_test) and the one before it (previous_result: null until two results were entered), so a retest shows what it replaced.',
  operationId: 'controls.sub_control.get',
  tags: TAGS,
  params: SubControlParams,
  response: { 200: DataResponse(SubControlReadView), ...errorResponses([404]) },
};

// ---- effectiveness summary and heat map ------------------------------------------------------------

export const ScopeQuery = Type.Object({
  legal_entity_id: Type.Optional(Uuid('Only sub-controls linked to BRAs of this legal entity (D7.1)')),
  business_unit_id: Type.Optional(Uuid('Only sub-controls linked to BRAs of this business unit (D7.1)')),
  bra_id: Type.Optional(Uuid('Only sub-controls linked to this BRA')),
  archived: Type.Optional(Type.Boolean({ default: false, description: 'true also counts archived sub-controls' })),
});


export const EffectivenessSummary = Type.Object({
  highly_effective: Count('Sub-controls rated Highly Effective'),
  effective: Count('Sub-controls rated Effective'),
  moderately_effective: Count('Sub-controls rated Moderately Effective'),
  less_effective: Count('Sub-controls rated Less Effective'),
  not_effective: Count('Sub-controls rated Not Effective'),
  not_assessed: Count('Sub-controls whose ToD or ToE is unset (D7.1)'),
  total: Count('Every sub-control in scope'),
});

const SCOPE_RULES =
  'Every member role (D5). Without filters: the whole library. With legal_entity_id and/or business_unit_id: the sub-controls linked to BRAs of that entity or unit (D7.1); with bra_id, those linked to that BRA; an assessor or reviewer naming an entity or unit not assigned to them gets 403; an id not of the enterprise, or a unit of another entity, is 400 INVALID_REFERENCE. Archived sub-controls are left out unless archived=true.';

export const effectivenessSchema = {
  summary: 'Effectiveness summary of the sub-controls',
  description: SCOPE_RULES,
  operationId: 'controls.effectiveness',
  tags: TAGS,
  querystring: ScopeQuery,
  response: { 200: DataResponse(EffectivenessSummary), ...errorResponses([]) },
};

const CellFilter = Type.Object(
  {
    tod: Tod(),
    toe: Toe(),
    legal_entity_id: Type.Optional(Uuid()),
    business_unit_id: Type.Optional(Uuid()),
    bra_id: Type.Optional(Uuid()),
    archived: Type.Optional(Type.Literal(true)),
  },
  { description: 'The GET /controls/sub-controls query that lists exactly the sub-controls this cell counts' },
);

const Cell = Type.Object({
  count: Count('Assessed sub-controls with this ToD and ToE'),
  effectiveness: Effectiveness('The 3.5 label of this cell'),
  filter: CellFilter,
});
const HeatMapRow = Type.Object(Object.fromEntries(TOE_LEVELS.map((toe) => [toe, Cell])) as Record<(typeof TOE_LEVELS)[number], typeof Cell>);

export const HeatMapView = Type.Object({
  tod_levels: Type.Array(Type.String(), { description: 'A to E' }),
  toe_levels: Type.Array(Type.String(), { description: '1 to 5' }),
  data: Type.Object(
    Object.fromEntries(TOD_LEVELS.map((tod) => [tod, HeatMapRow])) as Record<(typeof TOD_LEVELS)[number], typeof HeatMapRow>,
    { description: 'Keyed by ToD, then by ToE: all 25 cells, zeros included (D7.1)' },
  ),
  total_assessed: Count('Sub-controls with both ToD and ToE set'),
});

export const heatMapSchema = {
  summary: 'Heat map of sub-controls by ToD and ToE',
  description: SCOPE_RULES,
  operationId: 'controls.heat_map',
  tags: TAGS,
  querystring: ScopeQuery,
  response: { 200: DataResponse(HeatMapView), ...errorResponses([]) },
};
