import { defineModule } from '../../platform/module.js';
import { registerAlertRoutes } from './alerts.routes.js';
import { createAlertsService } from './alerts.service.js';

/** System alerts for super admins (4.7, D9.5); the platform's monitor raises them. */
export const alertsModule = defineModule({
  name: 'alerts',
  services: (db) => createAlertsService({ db }),
  routes: registerAlertRoutes,
});
