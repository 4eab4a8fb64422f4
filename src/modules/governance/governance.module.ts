import { defineModule } from '../../platform/module.js';
import { registerGovernanceRoutes } from './governance.routes.js';
import { createRiskAppetiteService } from './risk-appetite.service.js';

/** Governance (4.5): risk appetites per scope and their history. */
export const governanceModule = defineModule({
  name: 'governance',
  services: (db) => createRiskAppetiteService({ db }),
  routes: registerGovernanceRoutes,
});
