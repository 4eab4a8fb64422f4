import { defineModule } from '../../platform/module.js';
import { registerRiskScenarioRoutes } from './risk-scenarios.routes.js';
import { createRiskScenariosService } from './risk-scenarios.service.js';

/** The enterprise's risk scenario catalogue (D6.3). */
export const riskScenariosModule = defineModule({
  name: 'risk-scenarios',
  services: (db) => createRiskScenariosService({ db }),
  routes: registerRiskScenarioRoutes,
});
