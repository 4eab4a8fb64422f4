/**
 * D5 as data, one entry per /api/v1 route ("METHOD /path" relative to /api/v1, as the route is declared):
 * what a client admin, an assessor and a reviewer may reach with it. The isolation matrix
 * (isolation-matrix.test.ts) runs every registered route against this table and fails on a route that has
 * no entry here, so a new route cannot go unchecked: add one line with the route's D5 row.
 *
 *   'enterprise'  any resource of the caller's own enterprise
 *   'assigned'    only resources of legal entities (or units) the caller is assigned to (D5 "assigned")
 *   'none'        refused (403), whatever the resource
 *
 * Super admins are not in the table: D5 gives them every /api/v1/admin/* route for any enterprise, /me, and
 * nothing else (isolation-matrix.test.ts derives that from the path).
 */
export type Access = 'enterprise' | 'assigned' | 'none';

export interface RouteAccess {
  admin: Access;
  assessor: Access;
  reviewer: Access;
}

const row = (admin: Access, assessor: Access, reviewer: Access): RouteAccess => ({ admin, assessor, reviewer });

/** Reads of an assessment and of what hangs off it; writes of assessors (their own BRAs, still assigned). */
const BRA_READ = row('enterprise', 'assigned', 'assigned');
const BRA_WRITE = row('enterprise', 'assigned', 'none');
const ADMIN_ONLY = row('enterprise', 'none', 'none');
const EVERYONE = row('enterprise', 'enterprise', 'enterprise');
const AUDITORS = row('enterprise', 'none', 'enterprise');
const PLATFORM_ONLY = row('none', 'none', 'none');

export const D5_ROUTE_ACCESS: Record<string, RouteAccess> = {
  'GET /me': EVERYONE,

  'GET /bras': BRA_READ,
  'POST /bras': BRA_WRITE,
  'GET /bras/:bra_id': BRA_READ,
  'PATCH /bras/:bra_id': BRA_WRITE,
  'POST /bras/:bra_id/submit': BRA_WRITE,
  'POST /bras/:bra_id/return': ADMIN_ONLY,
  'POST /bras/:bra_id/approve': ADMIN_ONLY,
  'POST /bras/:bra_id/cancel': ADMIN_ONLY,
  'GET /bras/:bra_id/scenarios': BRA_READ,
  'POST /bras/:bra_id/scenarios': BRA_WRITE,
  'PATCH /bras/:bra_id/scenarios/:link_id': BRA_WRITE,
  'GET /bras/:bra_id/ratings': BRA_READ,
  'POST /bras/:bra_id/ratings': BRA_WRITE,
  'GET /bras/:bra_id/controls': BRA_READ,
  'POST /bras/:bra_id/controls': BRA_WRITE,
  'GET /bras/:bra_id/snapshots': BRA_READ,
  'GET /bras/:bra_id/snapshots/:snapshot_id': BRA_READ,
  'DELETE /bras/:bra_id/controls/:link_id': BRA_WRITE,
  'GET /bras/:bra_id/report': BRA_READ,
  'GET /bras/:bra_id/diff': BRA_READ,
  'POST /bras/:bra_id/roll-forward': row('enterprise', 'assigned', 'none'),
  'POST /bras/:bra_id/scenarios/bulk': BRA_WRITE,
  'GET /bras/:bra_id/comments': BRA_READ,
  'POST /bras/:bra_id/comments': BRA_READ,

  // Evidence keeps to its record's rules; the matrix's records are BRAs.
  'POST /bras/:bra_id/scenarios/:scenario_id/acceptances': ADMIN_ONLY,
  'GET /notifications': EVERYONE,
  'POST /notifications/read': EVERYONE,
  'GET /me/notification-preferences': EVERYONE,
  'PUT /me/notification-preferences': EVERYONE,
  'GET /notification-defaults': ADMIN_ONLY,
  'PUT /notification-defaults': ADMIN_ONLY,
  'GET /risk-acceptances': BRA_READ,
  'GET /risk-acceptances/:acceptance_id': BRA_READ,
  'POST /risk-acceptances/:acceptance_id/renew': ADMIN_ONLY,
  'POST /risk-acceptances/:acceptance_id/revoke': ADMIN_ONLY,
  'GET /evidence': BRA_READ,
  'POST /evidence': BRA_WRITE,
  'GET /evidence/:evidence_id/content': BRA_READ,
  'DELETE /evidence/:evidence_id': BRA_WRITE,

  'GET /risk-register': BRA_READ,
  'GET /risk-register/export': BRA_READ,
  'GET /dashboard': BRA_READ,
  'GET /risk-scenarios/:id/trend': BRA_READ,

  'GET /controls/key-controls': EVERYONE,
  'POST /controls/key-controls': ADMIN_ONLY,
  'PATCH /controls/key-controls/:key_control_id': ADMIN_ONLY,
  'POST /controls/key-controls/:key_control_id/archive': ADMIN_ONLY,
  'GET /controls/sub-controls': EVERYONE,
  'POST /controls/sub-controls': ADMIN_ONLY,
  'PATCH /controls/sub-controls/:sub_control_id': row('enterprise', 'enterprise', 'none'),
  'POST /controls/sub-controls/:sub_control_id/archive': ADMIN_ONLY,
  'GET /controls/effectiveness': EVERYONE,
  'GET /controls/heat-map': EVERYONE,
  'GET /controls/sub-controls/:sub_control_id': EVERYONE,
  'GET /controls/sub-controls/:sub_control_id/tests': EVERYONE,
  'POST /controls/sub-controls/:sub_control_id/tests': row('enterprise', 'enterprise', 'none'),
  'GET /controls/export': EVERYONE,
  'POST /controls/import': ADMIN_ONLY,
  'POST /controls/starter-library': ADMIN_ONLY,

  'GET /webhooks': ADMIN_ONLY,
  'POST /webhooks': ADMIN_ONLY,
  'GET /webhooks/:webhook_id': ADMIN_ONLY,
  'PATCH /webhooks/:webhook_id': ADMIN_ONLY,
  'DELETE /webhooks/:webhook_id': ADMIN_ONLY,
  'POST /webhooks/:webhook_id/rotate-secret': ADMIN_ONLY,
  'POST /webhooks/:webhook_id/test': ADMIN_ONLY,
  'GET /webhooks/:webhook_id/deliveries': ADMIN_ONLY,
  'POST /webhooks/:webhook_id/deliveries/:delivery_id/retry': ADMIN_ONLY,

  'GET /service-accounts': ADMIN_ONLY,
  'POST /service-accounts': ADMIN_ONLY,
  'GET /service-accounts/:service_account_id': ADMIN_ONLY,
  'PATCH /service-accounts/:service_account_id': ADMIN_ONLY,
  'DELETE /service-accounts/:service_account_id': ADMIN_ONLY,
  'GET /service-accounts/:service_account_id/tokens': ADMIN_ONLY,
  'POST /service-accounts/:service_account_id/tokens': ADMIN_ONLY,
  'POST /service-accounts/:service_account_id/tokens/:token_id/rotate': ADMIN_ONLY,
  'DELETE /service-accounts/:service_account_id/tokens/:token_id': ADMIN_ONLY,
  'GET /scim/tokens': ADMIN_ONLY,
  'POST /scim/tokens': ADMIN_ONLY,
  'DELETE /scim/tokens/:scim_token_id': ADMIN_ONLY,
  'GET /scim/groups': ADMIN_ONLY,
  'GET /scim/groups/:group_id': ADMIN_ONLY,
  'PATCH /scim/groups/:group_id': ADMIN_ONLY,
  'GET /sso/connections': ADMIN_ONLY,
  'POST /sso/connections': ADMIN_ONLY,
  'GET /sso/connections/:connection_id': ADMIN_ONLY,
  'PATCH /sso/connections/:connection_id': ADMIN_ONLY,
  'DELETE /sso/connections/:connection_id': ADMIN_ONLY,
  'GET /sso/domains': ADMIN_ONLY,
  'POST /sso/domains': ADMIN_ONLY,
  'POST /sso/domains/:domain_id/verify': ADMIN_ONLY,
  'DELETE /sso/domains/:domain_id': ADMIN_ONLY,
  // A super admin's attestation of a claimed domain (D5: /admin for super admins, any enterprise).
  'POST /admin/sso/domains/:domain_id/verify': PLATFORM_ONLY,
  'GET /admin/enterprises/:enterprise_id/sso/domains': PLATFORM_ONLY,

  'GET /mitigation-actions': BRA_READ,
  'POST /mitigation-actions': BRA_WRITE,
  'PATCH /mitigation-actions/:action_id': BRA_WRITE,
  'POST /mitigation-actions/bulk-update': BRA_WRITE,
  'POST /mitigation-actions/:action_id/archive': BRA_WRITE,

  'GET /governance/risk-appetite': BRA_READ,
  'POST /governance/risk-appetite': ADMIN_ONLY,
  'DELETE /governance/risk-appetite/:risk_appetite_id': ADMIN_ONLY,
  'GET /governance/risk-appetite/history': BRA_READ,

  'GET /audit': AUDITORS,
  'GET /audit/export': AUDITORS,
  'GET /audit/verify': AUDITORS,
  'POST /audit/verify': AUDITORS,
  'GET /audit/checkpoints': AUDITORS,
  'POST /audit/checkpoints': AUDITORS,

  'GET /legal-entities': BRA_READ,
  'POST /admin/legal-entities': ADMIN_ONLY,
  'POST /admin/legal-entities/:id/business-units': ADMIN_ONLY,
  'GET /risk-scenarios': EVERYONE,
  'POST /risk-scenarios': ADMIN_ONLY,
  'PATCH /legal-entities/:id': ADMIN_ONLY,
  'POST /legal-entities/:id/archive': ADMIN_ONLY,
  'PATCH /business-units/:id': ADMIN_ONLY,
  'POST /business-units/:id/archive': ADMIN_ONLY,
  'PATCH /risk-scenarios/:id': ADMIN_ONLY,
  'POST /risk-scenarios/:id/archive': ADMIN_ONLY,

  'GET /admin/enterprises/:enterprise_id/users': ADMIN_ONLY,
  'POST /admin/enterprises/:enterprise_id/users': ADMIN_ONLY,
  'PATCH /admin/enterprises/:enterprise_id/users/:user_id': ADMIN_ONLY,
  'DELETE /admin/enterprises/:enterprise_id/users/:user_id': ADMIN_ONLY,
  'POST /admin/enterprises/:enterprise_id/users/:user_id/invitation': ADMIN_ONLY,
  'POST /admin/enterprises/:enterprise_id/users/:user_id/reactivate': ADMIN_ONLY,
  'GET /admin/users/:user_id/entity-roles': ADMIN_ONLY,
  'POST /admin/users/:user_id/entity-roles': ADMIN_ONLY,
  'DELETE /admin/users/:user_id/entity-roles/:role_id': ADMIN_ONLY,

  'GET /admin/enterprises': PLATFORM_ONLY,
  'POST /admin/enterprises': PLATFORM_ONLY,
  'PATCH /admin/enterprises/:enterprise_id': PLATFORM_ONLY,
  'GET /admin/alerts': PLATFORM_ONLY,
  'PATCH /admin/alerts/:alert_id': PLATFORM_ONLY,
  'GET /admin/enterprises/:enterprise_id/health': PLATFORM_ONLY,
  'GET /admin/super-admins': PLATFORM_ONLY,
  'POST /admin/super-admins': PLATFORM_ONLY,
  'DELETE /admin/super-admins/:user_id': PLATFORM_ONLY,
};
