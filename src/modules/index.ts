import type { App, Platform } from '../app.js';
import { registerMeRoutes } from './me/me.routes.js';
import { registerLegalEntityRoutes } from './admin/legal-entities/legal-entities.routes.js';
import { registerRiskScenarioRoutes } from './admin/risk-scenarios/risk-scenarios.routes.js';
import { registerAdminRoutes } from './admin/admin.routes.js';
import { registerAlertRoutes } from './admin/alerts/alerts.routes.js';

/** Every module's routes, registered in one place. */
export async function registerModules(app: App, platform: Platform): Promise<void> {
  registerMeRoutes(app, platform);
  registerLegalEntityRoutes(app, platform);
  registerRiskScenarioRoutes(app, platform);
  registerAdminRoutes(app, platform);
  registerAlertRoutes(app, platform);
}
