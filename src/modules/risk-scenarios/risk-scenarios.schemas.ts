import { Type } from 'typebox';
import {
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

export const RiskScenarioView = Type.Object({
  id: Uuid(),
  name: Type.String({ description: 'Name of the scenario, unique in the enterprise (case-insensitive)' }),
  category: Type.String({
    description: 'Category; the starter catalogue uses the seven Basel II operational-risk event types',
  }),
  description: Nullable(Type.String({ description: 'What can happen' })),
  created_at: Timestamp(),
});

// Unknown query parameters are ignored (only bodies are strict, D2.3).
export const ListRiskScenariosQuery = Type.Object({
  category: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: 'Only scenarios of exactly this category' }),
  ),
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
