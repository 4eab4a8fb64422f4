import type { AppModule } from '../platform/module.js';
import { registerActionRoutes } from './actions/actions.routes.js';
import { registerAdminRoutes } from './admin/admin.routes.js';
import { registerAlertRoutes } from './alerts/alerts.routes.js';
import { registerLegalEntityRoutes } from './legal-entities/legal-entities.routes.js';
import { registerRiskScenarioRoutes } from './risk-scenarios/risk-scenarios.routes.js';
import { registerBraRoutes } from './bras/bras.routes.js';
import { registerControlRoutes } from './controls/controls.routes.js';
import { registerAuditTrailRoutes } from './audit-trail/audit-trail.routes.js';
import { registerGovernanceRoutes } from './governance/governance.routes.js';
import { registerMeRoutes } from './me/me.routes.js';

/**
 * Every domain module, as data: the app mounts each inside the /api/v1 gate, and the suites walk the same
 * list. Adding a module is one line here.
 */
export const MODULES: readonly AppModule[] = [
  { name: 'me', routes: registerMeRoutes },
  { name: 'legal-entities', routes: registerLegalEntityRoutes },
  { name: 'risk-scenarios', routes: registerRiskScenarioRoutes },
  { name: 'admin', routes: registerAdminRoutes },
  { name: 'alerts', routes: registerAlertRoutes },
  { name: 'bras', routes: registerBraRoutes },
  { name: 'actions', routes: registerActionRoutes },
  { name: 'controls', routes: registerControlRoutes },
  { name: 'audit-trail', routes: registerAuditTrailRoutes },
  { name: 'governance', routes: registerGovernanceRoutes },
];
