import { defineModule } from '../../platform/module.js';
import { registerLegalEntityRoutes } from './legal-entities.routes.js';
import { createLegalEntitiesService } from './legal-entities.service.js';

/** Legal entities and their business units (D6.2). */
export const legalEntitiesModule = defineModule({
  name: 'legal-entities',
  services: (db) => createLegalEntitiesService({ db }),
  routes: registerLegalEntityRoutes,
});
