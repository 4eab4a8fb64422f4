import { isSuperAdmin } from '../auth/policies.js';
import type { Principal } from '../auth/principal.js';

/** Typed audit events (interface.md 2.9, decisions.md D10.3). */
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * The contract's entity types, plus the platform's own: `enterprise` and `system_alert` (platform trail),
 * `business_unit` (a legal entity's unit), `risk_scenario` (the catalogue), `audit_checkpoint` (a signed chain head), `webhook` (an endpoint), `service_account` (an integration and its
 * tokens), `scim_token` and `scim_group` (SCIM provisioning's credentials and group mappings), `sso_connection` and
 * `sso_domain` (single sign-on's connections to an identity provider and its verified e-mail domains), `evidence_file` (a file
 * attached to a test, an action, a BRA or a scenario), `notification_preference` (a person's choices of how they
 * hear of notifications; the entity is the person) and `notification_default` (the enterprise's; the entity is the
 * enterprise), which the interface's list
 * does not name. The audit search accepts exactly these as its `entity_type` filter.
 */
export const AUDIT_ENTITY_TYPES = [
  'bra',
  'bra_rating',
  'bra_comment',
  'control',
  'mitigation_action',
  'legal_entity',
  'business_unit',
  'user',
  'risk_appetite',
  'risk_scenario',
  'enterprise',
  'system_alert',
  'audit_checkpoint',
  'webhook',
  'service_account',
  'scim_token',
  'scim_group',
  'sso_connection',
  'sso_domain',
  'evidence_file',
  'risk_acceptance',
  'notification_preference',
  'notification_default',
] as const;
export type AuditEntityType = (typeof AUDIT_ENTITY_TYPES)[number];

/** The contract's actions (2.9), plus `export`: data taken out of the service as a file (the risk register, a BRA report). */
export const AUDIT_ACTIONS = ['create', 'update', 'delete', 'approve', 'cancel', 'login', 'logout', 'access_denied', 'export'] as const;

export interface AuditActor {
  userId: string | null;
  email: string | null;
  fullName: string | null;
}

export interface AuditEvent {
  /** null: the platform trail (super admins' changes, accounts without an enterprise). */
  enterpriseId: string | null;
  actor: AuditActor;
  action: AuditAction;
  entityType: AuditEntityType | null;
  entityId: string | null;
  details: Record<string, unknown>;
  /** The operation that made the change; the writer puts it first in `action_details.operation`. */
  operation?: string | null;
  status?: 'success' | 'failed';
  ip: string | null;
  userAgent: string | null;
}

/** The actor, origin and operation of a caller, in the shape audit events take. */
export function auditFrom(caller: {
  userId: string;
  email: string;
  fullName: string;
  ip: string;
  userAgent: string | null;
  operation: string | null;
}): Pick<AuditEvent, 'actor' | 'ip' | 'userAgent' | 'operation'> {
  return {
    actor: { userId: caller.userId, email: caller.email, fullName: caller.fullName },
    ip: caller.ip,
    userAgent: caller.userAgent,
    operation: caller.operation,
  };
}

/** Where a caller's changes are recorded: super admins' go to the platform trail (D10.3). */
export function trailOf(caller: Pick<Principal, 'role' | 'enterpriseId'>): string | null {
  return isSuperAdmin(caller) ? null : caller.enterpriseId;
}
