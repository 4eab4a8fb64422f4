import { Type } from 'typebox';
import { Abilities, DataResponse, IdParams, Name, Nullable, PageResponse, PaginationQuery, Timestamp, Uuid, errorResponses } from '../../../platform/http/schemas.js';
import { COUNTRY_CODES } from './country-codes.js';
import { HealthScoreSchema, HealthStatusSchema } from '../../health/health.schemas.js';

export const ENTERPRISE_STATUSES = ['active', 'inactive'] as const;
export const SUBSCRIPTION_TIERS = ['starter', 'professional', 'enterprise'] as const;

const Status = (description = 'active or inactive (3.4)') => Type.Enum(ENTERPRISE_STATUSES, { description });
const Tier = (description = 'starter, professional or enterprise (D9.1)') => Type.Enum(SUBSCRIPTION_TIERS, { description });
const Country = Type.Enum(COUNTRY_CODES, { description: 'ISO 3166-1 alpha-2 code, upper case (D9.2)' });

export const EnterpriseListItem = Type.Object({
  id: Uuid(),
  name: Type.String(),
  country: Type.String({ description: 'ISO 3166-1 alpha-2 code' }),
  registration_number: Nullable(Type.String()),
  status: Status(),
  subscription_tier: Tier(),
  mrr_cents: Type.Integer({ description: "Monthly revenue: the tier's price, 0 while inactive (D9.1)" }),
  user_count: Type.Integer({ description: 'Active members' }),
  bra_count: Type.Integer({ description: 'BRAs other than cancelled ones' }),
  health_score: HealthScoreSchema('Health score now, 0 to 100 (GET /admin/enterprises/{id}/health gives its signals)'),
  health_status: HealthStatusSchema(),
  created_at: Timestamp(),
  updated_at: Timestamp(),
  abilities: Abilities({
    update: 'Change its status (PATCH): super admins',
    change_tier: 'Change its subscription tier (PATCH): super admins',
  }),
});

export const ListEnterprisesQuery = Type.Object({
  status: Type.Optional(Status('Only enterprises in this status')),
  ...PaginationQuery,
});

export const listEnterprisesSchema = {
  summary: 'List enterprises',
  description: 'Super admin only. Newest first, with monthly revenue, active users and live BRAs (4.7, D9.1).',
  operationId: 'admin.enterprises.list',
  tags: ['admin'],
  querystring: ListEnterprisesQuery,
  response: { 200: PageResponse(EnterpriseListItem), ...errorResponses([]) },
};

export const CreateEnterpriseBody = Type.Object(
  {
    name: Name('Enterprise name, unique case-insensitively'),
    country: Country,
    registration_number: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Company registration number' })),
    starter_library: Type.Optional(
      Type.Boolean({
        description: 'true: the enterprise starts with the starter control library (60+ untested key controls), as POST /controls/starter-library would load it',
        default: false,
      }),
    ),
  },
  { additionalProperties: false },
);

export const CreatedEnterprise = Type.Object({
  id: Uuid(),
  name: Type.String(),
  country: Type.String(),
  registration_number: Nullable(Type.String()),
  status: Status('Always active for a new enterprise'),
  subscription_tier: Tier('Always starter for a new enterprise'),
  created_at: Timestamp(),
});

export const createEnterpriseSchema = {
  summary: 'Create an enterprise',
  description:
    'Super admin only. Also creates the enterprise-default risk appetite (Medium, 9) and the starter risk-scenario catalogue (D6.3, D6.9); ' +
    'with `starter_library: true`, the starter control library too.',
  operationId: 'admin.enterprises.create',
  tags: ['admin'],
  body: CreateEnterpriseBody,
  response: { 201: DataResponse(CreatedEnterprise), ...errorResponses([409, 422]) },
};

export const UpdateEnterpriseBody = Type.Object(
  {
    status: Type.Optional(Status()),
    subscription_tier: Type.Optional(Tier()),
  },
  { additionalProperties: false, minProperties: 1, description: 'At least one of status, subscription_tier' },
);

export const UpdatedEnterprise = Type.Object({
  id: Uuid(),
  status: Status(),
  subscription_tier: Tier(),
  updated_at: Timestamp(),
});

export const updateEnterpriseSchema = {
  summary: 'Change the status or subscription tier of an enterprise',
  description: 'Super admin only (4.7).',
  operationId: 'admin.enterprises.update',
  tags: ['admin'],
  params: IdParams('enterprise_id'),
  body: UpdateEnterpriseBody,
  response: { 200: DataResponse(UpdatedEnterprise), ...errorResponses([404, 422]) },
};
