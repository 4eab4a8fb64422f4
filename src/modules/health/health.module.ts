import { defineModule } from '../../platform/module.js';
import { registerHealthRoutes } from './health.routes.js';
import { createHealthService } from './health.service.js';

/** Enterprise health (docs/enterprise-health.md): the score, its history and the alert when it worsens. */
export const healthModule = defineModule({
  name: 'health',
  services: (db) => createHealthService({ db }),
  routes: registerHealthRoutes,
  jobs: (platform) => [
    {
      name: 'health.enterprise_scores',
      // A check of the monitor's 10-second rounds (D10.5): it records the day's scores and returns the alerts to raise.
      start() {
        const health = createHealthService({ db: platform.database.db });
        const remove = platform.monitor.addPeriodicCheck(() => health.assessAll());
        return async () => remove();
      },
    },
  ],
});
