import { Type } from 'typebox';
import { DataResponse, FreeText, IdParams, Name, Nullable, PageResponse, PaginationQuery, Timestamp, Uuid, errorResponses } from '../../platform/http/schemas.js';

export const RiskScenarioView = Type.Object({
  id: Uuid(),
  name: Type.String({ description: 'Name of the scenario, unique in the enterprise (case-insensitive)' }),
  category: Type.String({
    description: 'Category; the starter catalogue uses the seven Basel II operational-risk event types',
  }),
  description: Nullable(Type.String({ description: 'What can happen' })),
  created_at: Timestamp(),
  archived_at: Nullable(Timestamp('When it was archived; null while active. Archived scenarios cannot be added to a BRA')),
});

// Unknown query parameters are ignored (only bodies are strict, D2.3).
export const ListRiskScenariosQuery = Type.Object({
  category: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: 'Only scenarios of exactly this category' }),
  ),
  include_archived: Type.Optional(Type.Boolean({ default: false, description: 'true also lists archived scenarios' })),
  ...PaginationQuery,
});

export const CreateRiskScenarioBody = Type.Object(
  {
    name: Name('Name of the scenario, unique in the enterprise (case-insensitive); at most 200 characters'),
    category: Name(
      "Category, at most 200 characters: one of the Basel event types (e.g. 'External fraud') or the enterprise's own",
    ),
    description: Type.Optional(Nullable(FreeText('What can happen; at most 5,000 characters'))),
  },
  { additionalProperties: false },
);

export const listRiskScenariosSchema = {
  summary: 'List the risk scenario catalogue',
  description: "The whole catalogue of the caller's enterprise, for every member role (D5); newest first (D2.5).",
  operationId: 'risk_scenarios.list',
  tags: ['risk scenarios'],
  querystring: ListRiskScenariosQuery,
  response: { 200: PageResponse(RiskScenarioView), ...errorResponses([]) },
};

export const createRiskScenarioSchema = {
  summary: 'Add a risk scenario to the catalogue',
  description: 'Client admins only (D5, D6.3).',
  operationId: 'risk_scenarios.create',
  tags: ['risk scenarios'],
  body: CreateRiskScenarioBody,
  response: { 201: DataResponse(RiskScenarioView), ...errorResponses([409, 413, 415, 422]) },
};

export const RiskScenarioParams = IdParams('id');

export const UpdateRiskScenarioBody = Type.Object(
  {
    name: Type.Optional(Name('New name, unique among the active scenarios of the enterprise (case-insensitive)')),
    category: Type.Optional(Name('New category, at most 200 characters')),
    description: Type.Optional(Nullable(FreeText('What can happen; null or empty clears it'))),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ name: 'Card-not-present fraud', category: 'External fraud' }] },
);

export const updateRiskScenarioSchema = {
  summary: 'Change a risk scenario of the catalogue',
  description:
    'Client admins only. BRAs that use the scenario show the new name; their snapshots keep the name they had. ' +
    'An archived scenario cannot be changed (409 INVALID_STATE); a name taken by another active scenario: 409 CONFLICT.',
  operationId: 'risk_scenarios.update',
  tags: ['risk scenarios'],
  params: RiskScenarioParams,
  body: UpdateRiskScenarioBody,
  response: { 200: DataResponse(RiskScenarioView), ...errorResponses([404, 409, 413, 415, 422]) },
};

export const archiveRiskScenarioSchema = {
  summary: 'Archive a risk scenario',
  description:
    'Client admins only. The scenario leaves the catalogue list (unless include_archived=true) and cannot be added to a BRA ' +
    '(400 INVALID_REFERENCE); BRAs that have it keep it, and its name is free for a new scenario. Archived already: 409 INVALID_STATE.',
  operationId: 'risk_scenarios.archive',
  tags: ['risk scenarios'],
  params: RiskScenarioParams,
  response: { 200: DataResponse(RiskScenarioView), ...errorResponses([404, 409]) },
};
