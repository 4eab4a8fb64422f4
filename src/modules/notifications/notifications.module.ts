import { intervalJob } from '../../platform/jobs.js';
import { defineModule } from '../../platform/module.js';
import { registerNotificationRoutes } from './notifications.routes.js';
import { createNotificationsService } from './notifications.service.js';
import { runReminderRound } from './reminders.js';

/** What the service tells people (issue 49): the notification centre; other modules notify through notify.ts. */
export const notificationsModule = defineModule({
  name: 'notifications',
  services: (db) => createNotificationsService({ db }),
  routes: registerNotificationRoutes,
  jobs: (platform) => [
    // Reminders of due and overdue actions, control tests and expiring risk acceptances: a round every
    // 15 minutes on one instance; each reminder is written once per recipient, record and date.
    intervalJob('notifications.reminders', 15 * 60_000, platform.log, async () => {
      await runReminderRound(platform.database.db, new Date(), platform.config.reminders);
    }, { oncePerPeriod: platform.database.db }),
  ],
});
