import { defineModule } from '../../platform/module.js';
import { registerMeRoutes } from './me.routes.js';
import { createMeService } from './me.service.js';

/** The caller's own profile (D4.4). */
export const meModule = defineModule({
  name: 'me',
  services: (db) => createMeService({ db }),
  routes: registerMeRoutes,
});
