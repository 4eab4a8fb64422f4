import type { Config } from '../config.js';
import type { Executor } from '../platform/db/schema.js';
import { dispatchByTemplate, type PrepareMail } from '../platform/mail/delivery.js';
import type { AppModule, ServicePlatform } from '../platform/module.js';
import { actionsModule } from './actions/actions.module.js';
import { adminModule } from './admin/admin.module.js';
import { alertsModule } from './alerts/alerts.module.js';
import { auditTrailModule } from './audit-trail/audit-trail.module.js';
import { brasModule } from './bras/bras.module.js';
import { controlsModule } from './controls/controls.module.js';
import { evidenceModule } from './evidence/evidence.module.js';
import { notificationsModule } from './notifications/notifications.module.js';
import { governanceModule } from './governance/governance.module.js';
import { healthModule } from './health/health.module.js';
import { identityModule } from './identity/identity.module.js';
import { legalEntitiesModule } from './legal-entities/legal-entities.module.js';
import { meModule } from './me/me.module.js';
import { reportingModule } from './reporting/reporting.module.js';
import { riskScenariosModule } from './risk-scenarios/risk-scenarios.module.js';
import { webhooksModule } from './webhooks/webhooks.module.js';

/**
 * Every domain module, as data: the app mounts each one's routes inside the /api/v1 gate and starts their
 * jobs when asked, the demo calls their services, and the suites walk the same list. Adding a module is one
 * line here.
 */
export const MODULES = [
  identityModule,
  meModule,
  legalEntitiesModule,
  riskScenariosModule,
  adminModule,
  alertsModule,
  brasModule,
  actionsModule,
  controlsModule,
  evidenceModule,
  notificationsModule,
  auditTrailModule,
  governanceModule,
  reportingModule,
  webhooksModule,
  healthModule,
] as const;

type AnyModule = (typeof MODULES)[number];

/** Each module's services, by module name: `services.bras.transitions.approve(...)`. */
export type ModuleServices = { [M in AnyModule as M['name']]: ReturnType<M['services']> };

/** Every module's services bound to one executor: the database, or a transaction for work that commits as one. */
export function moduleServices(executor: Executor, platform: ServicePlatform): ModuleServices {
  return Object.fromEntries(MODULES.map((module) => [module.name, module.services(executor, platform)])) as ModuleServices;
}

/** The outbox's one `prepare`: every module's mail templates (identity's invitation and recovery, the notifications'). */
export function prepareModuleMail(db: Executor, config: Config): PrepareMail {
  return dispatchByTemplate(Object.assign({}, ...MODULES.map((module: AppModule) => module.mail?.(db, config) ?? {})));
}
