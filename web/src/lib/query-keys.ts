/**
 * Every query key of the console, per resource (STYLE: one file). A list key starts with its resource's
 * `all`, so a mutation invalidates a resource's lists with one prefix and a detail with its own key.
 */
type Filters = Record<string, string | number | boolean | undefined>;

export const queryKeys = {
  me: ['me'] as const,
  /** The account as the provider knows it (last sign-in): under `me`, so a change of the person refreshes both. */
  providerUser: ['me', 'provider-user'] as const,
  legalEntities: ['legal-entities'] as const,
  /** The organisation screen's entities, the archived ones too on request: under `legalEntities`. */
  organisation: (includeArchived: boolean) => ['legal-entities', 'organisation', includeArchived] as const,
  riskScenariosAll: ['risk-scenarios'] as const,
  riskScenarios: (filters: Filters = {}) => ['risk-scenarios', filters] as const,
  bras: {
    all: ['bras'] as const,
    list: (filters: Filters) => ['bras', 'list', filters] as const,
    detail: (id: string) => ['bras', 'detail', id] as const,
    snapshots: (id: string) => ['bras', 'detail', id, 'snapshots'] as const,
    snapshot: (id: string, snapshotId: string) => ['bras', 'detail', id, 'snapshots', snapshotId] as const,
    /** Under the BRA's detail: a change of the BRA refreshes a diff against `current`. */
    diff: (id: string, from: string, to: string) => ['bras', 'detail', id, 'diff', from, to] as const,
  },
  /** A catalogue scenario across approved BRAs: under `bras`, since an approval adds a point. */
  scenarioTrend: (riskScenarioId: string) => ['bras', 'scenario-trend', riskScenarioId] as const,
  controls: {
    all: ['controls'] as const,
    keyControls: (filters: Filters) => ['controls', 'key-controls', filters] as const,
    heatMap: (filters: Filters) => ['controls', 'heat-map', filters] as const,
    effectiveness: (filters: Filters) => ['controls', 'effectiveness', filters] as const,
    subControls: (filters: Filters) => ['controls', 'sub-controls', filters] as const,
    subControl: (id: string) => ['controls', 'sub-control', id] as const,
    tests: (id: string, page: number) => ['controls', 'sub-control', id, 'tests', page] as const,
  },
  actions: {
    all: ['mitigation-actions'] as const,
    list: (filters: Filters) => ['mitigation-actions', 'list', filters] as const,
  },
  /** Risk acceptances (issue 48): a change of one also changes its BRA's answer, the register and the dashboard. */
  acceptances: {
    all: ['risk-acceptances'] as const,
    list: (filters: Filters) => ['risk-acceptances', 'list', filters] as const,
    detail: (id: string) => ['risk-acceptances', 'detail', id] as const,
  },
  appetite: {
    all: ['risk-appetite'] as const,
    list: ['risk-appetite', 'list'] as const,
    history: ['risk-appetite', 'history'] as const,
  },
  reporting: {
    all: ['reporting'] as const,
    register: (filters: Filters) => ['reporting', 'register', filters] as const,
    dashboard: (filters: Filters) => ['reporting', 'dashboard', filters] as const,
  },
  audit: {
    all: ['audit'] as const,
    list: (filters: Filters) => ['audit', 'list', filters] as const,
    verify: ['audit', 'verify'] as const,
    checkpoints: (page: number) => ['audit', 'checkpoints', page] as const,
  },
  admin: {
    enterprises: (filters: Filters) => ['admin', 'enterprises', filters] as const,
    users: (enterpriseId: string, filters: Filters = {}) => ['admin', 'users', enterpriseId, filters] as const,
    usersOf: (enterpriseId: string) => ['admin', 'users', enterpriseId] as const,
    entityRoles: (userId: string) => ['admin', 'entity-roles', userId] as const,
    alerts: (filters: Filters) => ['admin', 'alerts', filters] as const,
    ssoDomains: (enterpriseId: string) => ['admin', 'sso-domains', enterpriseId] as const,
  },
  platform: {
    health: (enterpriseId: string) => ['platform', 'health', enterpriseId] as const,
    superAdmins: ['platform', 'super-admins'] as const,
  },
  /** The caller's notifications (issue 49): marking one read changes every list and the bell's count. */
  notifications: {
    all: ['notifications'] as const,
    list: (filters: Filters) => ['notifications', 'list', filters] as const,
  },
  /** How the service mails a person of each kind, and the enterprise's defaults: apart from the list, which a read does not change. */
  notificationPreferences: ['notification-preferences'] as const,
  notificationDefaults: ['notification-defaults'] as const,
  /** A record's evidence files (issue 48): `record_type` and `record_id` name the record. */
  evidence: (recordType: string, recordId: string) => ['evidence', recordType, recordId] as const,
  integrations: {
    webhooks: ['integrations', 'webhooks'] as const,
    deliveries: (webhookId: string, filters: Filters) => ['integrations', 'webhooks', webhookId, 'deliveries', filters] as const,
    serviceAccounts: ['integrations', 'service-accounts'] as const,
    tokens: (accountId: string) => ['integrations', 'service-accounts', accountId, 'tokens'] as const,
    scimTokens: ['integrations', 'scim-tokens'] as const,
    scimGroups: ['integrations', 'scim-groups'] as const,
    ssoConnections: ['integrations', 'sso-connections'] as const,
    ssoDomains: ['integrations', 'sso-domains'] as const,
    samlSpMetadata: ['integrations', 'saml-sp-metadata'] as const,
  },
};
