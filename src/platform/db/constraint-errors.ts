import { AppError } from '../errors/app-error.js';

/**
 * Maps database constraint violations to the contract's errors, by constraint name, in one place.
 * Services may still check first to give a friendlier message; this is the wall behind them that also
 * settles races between concurrent requests.
 */
const UNIQUE_MESSAGES: Record<string, string> = {
  enterprises_name_key: 'An enterprise with this name already exists',
  users_active_email_key: 'An active user with this e-mail already exists',
  enterprise_members_enterprise_user_key: 'This user is already a member of the enterprise',
  enterprise_members_active_user_key: 'This user already belongs to an enterprise',
  legal_entities_name_key: 'A legal entity with this name already exists',
  business_units_name_key: 'A business unit with this name already exists in the legal entity',
  entity_roles_assignment_key: 'This entity role is already assigned',
  risk_scenarios_name_key: 'A risk scenario with this name already exists',
  bras_name_key: 'A BRA with this name already exists',
  bra_risk_scenarios_scenario_key: 'This risk scenario is already part of the BRA',
  bra_ratings_current_key: 'Another rating of this scenario and type was recorded at the same time',
  bra_controls_sub_control_key: 'This sub-control is already linked to the BRA (for this scenario, or BRA-wide)',
  risk_appetites_scope_key: 'A risk appetite already exists for this scope',
  service_accounts_name_key: 'An active service account with this name already exists',
  service_account_entities_assignment_key: 'The same entity assignment is listed twice',
  scim_group_entities_assignment_key: 'The same entity assignment is listed twice',
  scim_groups_display_name_key: 'A group with this displayName already exists',
  scim_users_external_id_key: 'A user with this externalId already exists',
  sso_connections_name_key: 'A connection with this name already exists',
  sso_domains_enterprise_domain_key: 'This domain is already claimed by the enterprise',
  sso_domains_verified_key: 'This domain is verified for another enterprise',
};

const REFERENCE_FIELDS: Record<string, string> = {
  entity_roles_legal_entity_fkey: 'legal_entity_id',
  entity_roles_business_unit_fkey: 'business_unit_id',
  business_units_legal_entity_fkey: 'legal_entity_id',
  risk_appetites_legal_entity_fkey: 'legal_entity_id',
  risk_appetites_business_unit_fkey: 'business_unit_id',
  bras_legal_entity_fkey: 'legal_entity_id',
  bras_business_unit_fkey: 'business_unit_id',
  mitigation_actions_bra_fkey: 'bra_id',
  mitigation_actions_scenario_fkey: 'bra_risk_scenario_id',
  bra_risk_scenarios_risk_scenario_fkey: 'risk_scenario_id',
  bra_ratings_link_fkey: 'bra_risk_scenario_id',
  bra_controls_sub_control_fkey: 'sub_control_id',
  bra_controls_scenario_fkey: 'bra_risk_scenario_id',
  service_account_entities_legal_entity_fkey: 'entity_assignments.legal_entity_id',
  service_account_entities_business_unit_fkey: 'entity_assignments.business_unit_id',
  scim_group_entities_legal_entity_fkey: 'entity_assignments.legal_entity_id',
  scim_group_entities_business_unit_fkey: 'entity_assignments.business_unit_id',
};

interface PgError {
  code?: string;
  constraint?: string;
}

export function mapConstraintError(error: unknown): AppError | null {
  if (typeof error !== 'object' || error === null) return null;
  const { code, constraint } = error as PgError;
  if (code === '23505') {
    return new AppError('CONFLICT', UNIQUE_MESSAGES[constraint ?? ''] ?? 'The resource already exists');
  }
  if (code === '23503') {
    const field = REFERENCE_FIELDS[constraint ?? ''];
    if (field !== undefined) {
      return new AppError('INVALID_REFERENCE', `${field} does not refer to an existing record here`, { field });
    }
  }
  return null;
}

const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', '57P01', '57P02', '57P03', '53300']);

/** True for errors that mean the database cannot be reached (D2.2: 503), as opposed to a bad query. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: string; message?: string };
  if (code !== undefined && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true;
  const text = message ?? '';
  return (
    /database is closed|Connection terminated|is not queryable|timeout exceeded when trying to connect|driver has already been destroyed/i.test(
      text,
    ) || (error instanceof AggregateError && error.errors.some(isDatabaseUnavailable))
  );
}
