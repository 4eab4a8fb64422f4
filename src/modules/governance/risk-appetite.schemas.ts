import { Type, type Static } from 'typebox';
import {
  FreeText,
  IdParams,
  ListResponse,
  Message,
  MessageOnly,
  Nullable,
  Timestamp,
  Uuid,
  errorResponses,
} from '../../platform/http/schemas.js';

const RiskLevel = Type.Enum(['Low', 'Medium', 'High', 'Very High'], { description: 'Risk level of the appetite' });
const Threshold = Type.Integer({ minimum: 1, maximum: 25, description: 'Maximum acceptable risk score, 1 to 25' });

export const RiskAppetiteView = Type.Object({
  id: Uuid(),
  risk_level: RiskLevel,
  threshold_value: Threshold,
  description: Nullable(Type.String({ description: 'Rationale' })),
  legal_entity_id: Nullable(Uuid('null together with a null business_unit_id: the enterprise default')),
  business_unit_id: Nullable(Uuid('The business unit of a unit-level override')),
  created_at: Timestamp(),
  updated_at: Timestamp(),
  updated_by: Nullable(Uuid('The user who made the last change')),
});
export type RiskAppetiteView = Static<typeof RiskAppetiteView>;

export const HistoryEntryView = Type.Object({
  id: Uuid(),
  risk_appetite_id: Uuid('The record changed (kept after an override is deleted)'),
  legal_entity_id: Nullable(Uuid('The scope of that record')),
  business_unit_id: Nullable(Uuid('The scope of that record')),
  previous_level: Nullable(RiskLevel),
  new_level: Type.Union([RiskLevel, Type.Null()], { description: 'null when the override was deleted' }),
  previous_threshold: Nullable(Type.Integer({ description: 'null on creation' })),
  new_threshold: Nullable(Type.Integer({ description: 'null when the override was deleted' })),
  changed_by: Nullable(Uuid('Who made the change')),
  changed_by_name: Nullable(Type.String({ description: "That user's full name now; null when no user is recorded" })),
  changed_at: Timestamp('When the change was made'),
  reason: Nullable(Type.String({ description: 'The reason given with the change' })),
});

export const ListAppetitesQuery = Type.Object({
  legal_entity_id: Type.Optional(Uuid('Only records of this legal entity (its entity-level and unit-level overrides)')),
  business_unit_id: Type.Optional(Uuid('Only the record of this business unit')),
});
export type ListAppetitesQuery = Static<typeof ListAppetitesQuery>;

export const UpsertAppetiteBody = Type.Object(
  {
    risk_level: RiskLevel,
    threshold_value: Threshold,
    description: Type.Optional(Nullable(FreeText('Rationale, at most 5,000 characters'))),
    legal_entity_id: Type.Optional(Nullable(Uuid('The legal entity of an override; null or absent: the enterprise default'))),
    business_unit_id: Type.Optional(Nullable(Uuid('The business unit of an override; requires its legal_entity_id'))),
    reason: Type.Optional(Nullable(FreeText('Why the appetite changes; kept in the history entry (D7.4)'))),
  },
  { additionalProperties: false },
);
export type UpsertAppetiteBody = Static<typeof UpsertAppetiteBody>;

export const HistoryQuery = Type.Object({
  risk_appetite_id: Type.Optional(Uuid('Only changes of this record')),
  legal_entity_id: Type.Optional(Uuid('Only changes of records of this legal entity')),
});
export type HistoryQuery = Static<typeof HistoryQuery>;

const TAGS = ['governance'];

export const listAppetitesSchema = {
  summary: 'List risk appetites',
  description:
    'Client admins see every record of the enterprise; assessors and reviewers the enterprise default and the ' +
    'records of the entities and units they are assigned to (D5). A filter naming an unassigned entity or unit ' +
    'answers 403 (D10.1). Newest first; not paginated.',
  operationId: 'governance.risk_appetite.list',
  tags: TAGS,
  querystring: ListAppetitesQuery,
  response: { 200: ListResponse(RiskAppetiteView), ...errorResponses([]) },
};

export const upsertAppetiteSchema = {
  summary: 'Create or update the risk appetite of a scope',
  description:
    'One record per scope (enterprise default, legal entity, or business unit): 201 when it creates the record, ' +
    '200 when it updates it (D7.4). Every change writes a history entry and an audit entry. Client admins only.',
  operationId: 'governance.risk_appetite.upsert',
  tags: TAGS,
  body: UpsertAppetiteBody,
  response: {
    200: Type.Object({ data: RiskAppetiteView, message: Message }, { description: 'The record was updated' }),
    201: Type.Object({ data: RiskAppetiteView, message: Message }, { description: 'The record was created' }),
    ...errorResponses([413, 415, 422]),
  },
};

export const deleteAppetiteSchema = {
  summary: 'Delete a risk appetite override',
  description:
    'Removes an entity- or unit-level override; the scope falls back to the next applicable appetite (D6.9). The ' +
    'enterprise default cannot be deleted (409 INVALID_STATE). Writes a history entry. Client admins only.',
  operationId: 'governance.risk_appetite.delete',
  tags: TAGS,
  params: IdParams('risk_appetite_id'),
  response: { 200: MessageOnly, ...errorResponses([404, 409]) },
};

export const appetiteHistorySchema = {
  summary: 'List the risk appetite change history',
  description:
    'Every change of a risk appetite, newest first, optionally of one record or one legal entity (D7.4). Scope as ' +
    'for the list (D5).',
  operationId: 'governance.risk_appetite.history',
  tags: TAGS,
  querystring: HistoryQuery,
  response: { 200: ListResponse(HistoryEntryView), ...errorResponses([]) },
};
