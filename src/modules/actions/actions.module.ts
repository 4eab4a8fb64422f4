import { intervalJob } from '../../platform/jobs.js';
import { defineModule } from '../../platform/module.js';
import { registerActionRoutes } from './actions.routes.js';
import { createActionsService } from './actions.service.js';
import { enterpriseHealthCheck } from './enterprise-health.check.js';
import { announceOverdueActions } from './overdue-events.js';

/**
 * Mitigation actions (4.4), the enterprise_health alert about overdue urgent ones (D9.5), and the events of
 * actions that become overdue.
 */
export const actionsModule = defineModule({
  name: 'actions',
  services: (db, platform) => createActionsService({ db, reads: platform.reads }),
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
    // Webhooks' mitigation_action.overdue: actions that became overdue, announced through the outbox.
    intervalJob('actions.overdue_events', 60_000, platform.log, async () => {
      await announceOverdueActions(platform.database.db, new Date());
    }, { oncePerPeriod: platform.database.db }),
  ],
});
