import { Type } from 'typebox';
import { Abilities, DataResponse, Nullable, Uuid, errorResponses } from '../../platform/http/schemas.js';

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
  abilities: Abilities({
    see_risk_data: "Read the enterprise's risk data (BRAs, register, controls, actions, appetite): members, not super admins",
    create_bras: 'Create BRAs (in the places one may write): client admins and assessors',
    approve_bras: 'Approve, return and cancel BRAs: client admins',
    accept_risks: 'Accept, renew and revoke risks above appetite (issue 48): client admins',
    manage_organisation: 'Create, rename and archive legal entities and business units: client admins',
    manage_risk_scenarios: 'Add and change scenarios of the catalogue',
    manage_control_library: 'Create, change, archive, import and load the control library: client admins',
    record_control_tests: 'Record control tests: client admins and assessors',
    change_actions: 'Create and change mitigation actions: client admins and assessors',
    set_appetite: 'Set and remove risk appetites: client admins',
    read_audit_trail: 'Read, export and verify the audit trail: client admins and reviewers',
    administer_members: "Administer members and their entity access: client admins (their enterprise's), super admins",
    administer_platform: 'Administer enterprises, super admins and alerts: super admins',
    manage_integrations: 'Webhooks, service accounts and SCIM provisioning: client admins',
  }),
  grantable_roles: Type.Array(Type.String({ description: 'A member role: admin, assessor or reviewer' }), {
    description: 'The roles the caller may give a member (add, re-invite, reactivate): super admins any; client admins assessors and reviewers; others none',
  }),
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
