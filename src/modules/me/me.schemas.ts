import { Type } from 'typebox';
import { DataResponse, Nullable, Uuid, errorResponses } from '../../platform/http/schemas.js';

export const EntityAssignmentView = Type.Object({
  legal_entity_id: Uuid(),
  business_unit_id: Nullable(Uuid()),
  name: Type.String({ description: 'Name of the legal entity' }),
  business_unit_name: Nullable(Type.String()),
});

export const MeView = Type.Object({
  user_id: Uuid(),
  email: Type.String(),
  full_name: Type.String(),
  role: Type.Union([Type.Literal('super_admin'), Type.Literal('admin'), Type.Literal('assessor'), Type.Literal('reviewer')]),
  enterprise_id: Nullable(Uuid('null for a super admin')),
  enterprise_name: Nullable(Type.String()),
  entity_assignments: Type.Array(EntityAssignmentView),
  kind: Type.Enum(['user', 'service_account'], {
    description: "'service_account': the token is an integration's (user_id is the account's id, full_name its name); 'user': a person's",
  }),
});

export const getMeSchema = {
  summary: 'The authenticated caller',
  description: 'Who the token belongs to, with the role and entity assignments taken from our records (D4.4): a person, or a service account for an integration token.',
  operationId: 'me.get',
  tags: ['identity'],
  response: { 200: DataResponse(MeView), ...errorResponses([]) },
};
