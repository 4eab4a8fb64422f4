import { Type } from 'typebox';
import {
  DataResponse,
  FreeText,
  IdParams,
  ListResponse,
  Name,
  Nullable,
  Timestamp,
  Uuid,
  errorResponses,
} from '../../platform/http/schemas.js';

export const BusinessUnitSummary = Type.Object({
  id: Uuid(),
  name: Type.String({ description: 'Name of the business unit' }),
});

export const LegalEntityView = Type.Object({
  id: Uuid(),
  name: Type.String({ description: 'Name of the legal entity, unique in the enterprise (case-insensitive)' }),
  description: Nullable(Type.String({ description: 'What the legal entity is' })),
  created_at: Timestamp(),
});

export const LegalEntityListItem = Type.Object({
  ...LegalEntityView.properties,
  business_units: Type.Array(BusinessUnitSummary, {
    description:
      'Its business units, newest first. An assessor or reviewer assigned to particular units sees only those.',
  }),
});

export const BusinessUnitView = Type.Object({
  id: Uuid(),
  legal_entity_id: Uuid('The legal entity the unit belongs to'),
  name: Type.String({ description: 'Name of the business unit, unique within its legal entity (case-insensitive)' }),
  created_at: Timestamp(),
});

export const CreateLegalEntityBody = Type.Object(
  {
    name: Name('Name of the legal entity, unique in the enterprise (case-insensitive); at most 200 characters'),
    description: Type.Optional(Nullable(FreeText('What the legal entity is; at most 5,000 characters'))),
  },
  { additionalProperties: false },
);

export const CreateBusinessUnitBody = Type.Object(
  { name: Name('Name of the business unit, unique within the legal entity (case-insensitive); at most 200 characters') },
  { additionalProperties: false },
);

export const LegalEntityParams = IdParams('id');

export const listLegalEntitiesSchema = {
  summary: 'List legal entities with their business units',
  description:
    'Client admins see every legal entity of their enterprise; assessors and reviewers those they are ' +
    'assigned to (D5). Newest first (D2.5); not paginated.',
  operationId: 'legal_entities.list',
  tags: ['legal entities'],
  response: { 200: ListResponse(LegalEntityListItem), ...errorResponses([]) },
};

export const createLegalEntitySchema = {
  summary: 'Create a legal entity',
  description: "Client admins only; the entity belongs to the caller's enterprise (D6.2).",
  operationId: 'legal_entities.create',
  tags: ['legal entities'],
  body: CreateLegalEntityBody,
  response: { 201: DataResponse(LegalEntityView), ...errorResponses([409, 413, 415, 422]) },
};

export const createBusinessUnitSchema = {
  summary: 'Create a business unit of a legal entity',
  description: "Client admins only. A legal entity of another enterprise answers 404 (D2.2).",
  operationId: 'business_units.create',
  tags: ['legal entities'],
  params: LegalEntityParams,
  body: CreateBusinessUnitBody,
  response: { 201: DataResponse(BusinessUnitView), ...errorResponses([404, 409, 413, 415, 422]) },
};
