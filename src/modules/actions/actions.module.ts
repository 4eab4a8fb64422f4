import { defineModule } from '../../platform/module.js';
import { registerActionRoutes } from './actions.routes.js';
import { createActionsService } from './actions.service.js';
import { enterpriseHealthCheck } from './enterprise-health.check.js';

/** Mitigation actions (4.4), and the enterprise_health alert about overdue urgent ones (D9.5). */
export const actionsModule = defineModule({
  name: 'actions',
  services: (db) => createActionsService({ db }),
  routes: registerActionRoutes,
  jobs: (platform) => [
    {
      name: 'actions.enterprise_health',
      // A check of the platform's monitor, which runs it with its other periodic checks (every 10 s).
      start() {
        const remove = platform.monitor.addPeriodicCheck(enterpriseHealthCheck());
        return async () => remove();
      },
    },
  ],
});
