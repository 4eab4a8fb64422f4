import type { Kysely, Transaction } from 'kysely';
import type { ActionsTables } from './tables/actions.js';
import type { AlertsTables } from './tables/alerts.js';
import type { AuditTables } from './tables/audit.js';
import type { AuthTables } from './tables/auth.js';
import type { BrasTables } from './tables/bras.js';
import type { ControlsTables } from './tables/controls.js';
import type { EnterprisesTables } from './tables/enterprises.js';
import type { GovernanceTables } from './tables/governance.js';
import type { LegalEntitiesTables } from './tables/legal-entities.js';
import type { UsersTables } from './tables/users.js';

/** The whole database as Kysely sees it: one interface per table file, intersected. */
export type DB = EnterprisesTables &
  UsersTables &
  LegalEntitiesTables &
  AuthTables &
  AuditTables &
  AlertsTables &
  GovernanceTables &
  BrasTables &
  ControlsTables &
  ActionsTables;

/** What repositories take: the database itself or an open transaction. */
export type Executor = Kysely<DB> | Transaction<DB>;
