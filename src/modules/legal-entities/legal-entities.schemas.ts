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

const ArchivedAt = Nullable(Timestamp('When it was archived; null while active. Archived ones leave pickers and new BRAs'));

export const BusinessUnitSummary = Type.Object({
  id: Uuid(),
  name: Type.String({ description: 'Name of the business unit' }),
  description: Nullable(Type.String({ description: 'What the business unit is' })),
  archived_at: ArchivedAt,
});

export const LegalEntityView = Type.Object({
  id: Uuid(),
  name: Type.String({ description: 'Name of the legal entity, unique in the enterprise (case-insensitive)' }),
  description: Nullable(Type.String({ description: 'What the legal entity is' })),
  created_at: Timestamp(),
  archived_at: ArchivedAt,
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
  description: Nullable(Type.String({ description: 'What the business unit is' })),
  created_at: Timestamp(),
  archived_at: ArchivedAt,
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
  querystring: Type.Object({
    include_archived: Type.Optional(Type.Boolean({ default: false, description: 'true also lists archived entities and units' })),
  }),
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

const UpdateFields = (what: string) =>
  Type.Object(
    {
      name: Type.Optional(Name(`New name of the ${what}, unique among its active siblings (case-insensitive); at most 200 characters`)),
      description: Type.Optional(Nullable(FreeText(`What the ${what} is; null or empty clears it`))),
    },
    { additionalProperties: false, minProperties: 1, examples: [{ name: 'Northwind Bank plc', description: 'The UK banking entity' }] },
  );

export const UpdateLegalEntityBody = UpdateFields('legal entity');
export const UpdateBusinessUnitBody = UpdateFields('business unit');

const ARCHIVE_CONFLICT =
  '409 INVALID_STATE while a draft, in_progress or under_review BRA uses it; details.bras names them ({ id, name, status }). ' +
  'Also 409 for one archived already.';

export const updateLegalEntitySchema = {
  summary: 'Rename or describe a legal entity',
  description: 'Client admins only. An archived entity cannot be changed (409). A name taken by another active entity: 409 CONFLICT.',
  operationId: 'legal_entities.update',
  tags: ['legal entities'],
  params: LegalEntityParams,
  body: UpdateLegalEntityBody,
  response: { 200: DataResponse(LegalEntityView), ...errorResponses([404, 409, 413, 415, 422]) },
};

export const archiveLegalEntitySchema = {
  summary: 'Archive a legal entity (and its business units)',
  description:
    'Client admins only. The entity and its units leave GET /legal-entities (unless include_archived=true) and cannot be used by ' +
    'new BRAs (400 INVALID_REFERENCE); BRAs that have them keep showing them. Its name becomes free for a new entity. ' +
    ARCHIVE_CONFLICT,
  operationId: 'legal_entities.archive',
  tags: ['legal entities'],
  params: LegalEntityParams,
  response: { 200: DataResponse(LegalEntityView), ...errorResponses([404, 409]) },
};

export const BusinessUnitParams = IdParams('id');

export const updateBusinessUnitSchema = {
  summary: 'Rename or describe a business unit',
  description: 'Client admins only. An archived unit cannot be changed (409). A name taken by another active unit of its entity: 409 CONFLICT.',
  operationId: 'business_units.update',
  tags: ['legal entities'],
  params: BusinessUnitParams,
  body: UpdateBusinessUnitBody,
  response: { 200: DataResponse(BusinessUnitView), ...errorResponses([404, 409, 413, 415, 422]) },
};

export const archiveBusinessUnitSchema = {
  summary: 'Archive a business unit',
  description: 'Client admins only. As for a legal entity: gone from pickers and new BRAs, kept on old ones. ' + ARCHIVE_CONFLICT,
  operationId: 'business_units.archive',
  tags: ['legal entities'],
  params: BusinessUnitParams,
  response: { 200: DataResponse(BusinessUnitView), ...errorResponses([404, 409]) },
};
