import type { AuditQuery } from './api';

type RecordKind = NonNullable<AuditQuery['entity_type']>;
type ActionKind = NonNullable<AuditQuery['action_type']>;

/**
 * How the trail names each kind of record and where its screen is. Typed over the API's own enum, so a kind
 * the service adds fails the console's type check until it is named here.
 */
export const RECORD_KINDS: Record<RecordKind, { label: string; screen?: (id: string) => string }> = {
  bra: { label: 'BRA', screen: (id) => `/bras/${id}` },
  bra_rating: { label: 'BRA rating' },
  bra_comment: { label: 'BRA comment' },
  control: { label: 'Control', screen: () => '/controls' },
  mitigation_action: { label: 'Mitigation action', screen: () => '/actions' },
  legal_entity: { label: 'Legal entity' },
  business_unit: { label: 'Business unit' },
  user: { label: 'User', screen: () => '/admin/users' },
  risk_appetite: { label: 'Risk appetite', screen: () => '/risk-appetite' },
  risk_scenario: { label: 'Risk scenario' },
  enterprise: { label: 'Enterprise', screen: () => '/admin/enterprises' },
  system_alert: { label: 'System alert', screen: () => '/admin/alerts' },
  audit_checkpoint: { label: 'Audit checkpoint' },
  webhook: { label: 'Webhook', screen: () => '/integrations/webhooks' },
  service_account: { label: 'Service account', screen: () => '/integrations/service-accounts' },
  scim_token: { label: 'SCIM token', screen: () => '/integrations/provisioning' },
  scim_group: { label: 'SCIM group mapping', screen: () => '/integrations/provisioning' },
  sso_connection: { label: 'SSO connection', screen: () => '/integrations/sso' },
  sso_domain: { label: 'SSO domain', screen: () => '/integrations/sso' },
  evidence_file: { label: 'Evidence file' },
  risk_acceptance: { label: 'Risk acceptance' },
  notification_preference: { label: 'Notification preference', screen: () => '/profile' },
  notification_default: { label: 'Notification default', screen: () => '/organisation' },
};

export const ACTION_KINDS: Record<ActionKind, string> = {
  create: 'Created',
  update: 'Changed',
  delete: 'Archived or deleted',
  approve: 'Approved',
  cancel: 'Cancelled',
  login: 'Signed in',
  logout: 'Signed out',
  access_denied: 'Refused access',
  export: 'Exported',
};

export const recordLabel = (kind: string | null) => (kind === null ? '–' : (RECORD_KINDS[kind as RecordKind]?.label ?? kind));
export const actionLabel = (kind: string) => ACTION_KINDS[kind as ActionKind] ?? kind;
