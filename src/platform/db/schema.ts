import type { Kysely, Transaction } from 'kysely';
import type { ActionsTables } from './tables/actions.js';
import type { AuditTables } from './tables/audit.js';
import type { AuditTrailTables } from './tables/audit-trail.js';
import type { AuthTables } from './tables/auth.js';
import type { BrasTables } from './tables/bras.js';
import type { ControlsTables } from './tables/controls.js';
import type { EnterprisesTables } from './tables/enterprises.js';
import type { EntityRolesTables } from './tables/entity-roles.js';
import type { EventsTables } from './tables/events.js';
import type { EvidenceTables } from './tables/evidence.js';
import type { GovernanceTables } from './tables/governance.js';
import type { HealthTables } from './tables/health.js';
import type { IdempotencyTables } from './tables/idempotency.js';
import type { IdentityTables } from './tables/identity.js';
import type { LegalEntitiesTables } from './tables/legal-entities.js';
import type { MailTables } from './tables/mail.js';
import type { MonitoringTables } from './tables/monitoring.js';
import type { NotificationsTables } from './tables/notifications.js';
import type { RiskScenariosTables } from './tables/risk-scenarios.js';
import type { SchedulingTables } from './tables/scheduling.js';
import type { ScimTables } from './tables/scim.js';
import type { SsoTables } from './tables/sso.js';
import type { ServiceAccountsTables } from './tables/service-accounts.js';
import type { UsersTables } from './tables/users.js';
import type { WebhooksTables } from './tables/webhooks.js';

/**
 * The whole database as Kysely sees it: one interface per table file, intersected. A table file is named
 * after the module or platform area that owns its tables, the only one that writes them
 * (test/architecture/table-owners.test.ts).
 */
export type DB = EnterprisesTables &
  UsersTables &
  EntityRolesTables &
  LegalEntitiesTables &
  RiskScenariosTables &
  IdentityTables &
  AuthTables &
  MailTables &
  AuditTables &
  AuditTrailTables &
  NotificationsTables &
  MonitoringTables &
  GovernanceTables &
  BrasTables &
  ControlsTables &
  ActionsTables &
  IdempotencyTables &
  EventsTables &
  WebhooksTables &
  HealthTables &
  SchedulingTables &
  ServiceAccountsTables &
  ScimTables &
  SsoTables &
  EvidenceTables;

/** What repositories take: the database itself or an open transaction. */
export type Executor = Kysely<DB> | Transaction<DB>;
