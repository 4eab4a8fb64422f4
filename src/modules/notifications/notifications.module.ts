import { intervalJob } from '../../platform/jobs.js';
import { defineModule } from '../../platform/module.js';
import { digestJob } from './digest.js';
import { notificationMailTemplates } from './notification-mail.js';
import { registerNotificationRoutes } from './notifications.routes.js';
import { createNotificationsService } from './notifications.service.js';
import { runReminderRound } from './reminders.js';
import { registerPreferenceRoutes } from './preferences.routes.js';
import { createPreferencesService } from './preferences.service.js';

/**
 * What the service tells people (issue 49): the notification centre, how each person hears of each kind
 * (preferences, the enterprise's defaults), and the mail: at once, in the daily digest, with a one-click
 * unsubscribe (unsubscribe.routes.ts, public, mounted by app.ts). Other modules notify through notify.ts.
 */
export const notificationsModule = defineModule({
  name: 'notifications',
  services: (db) => ({ ...createNotificationsService({ db }), preferences: createPreferencesService({ db }) }),
  routes(api, services) {
    registerNotificationRoutes(api, services);
    registerPreferenceRoutes(api, services.preferences);
  },
  mail: notificationMailTemplates,
  jobs: (platform) => [
    // Reminders of due and overdue actions, control tests and expiring risk acceptances: a round every
    // 15 minutes on one instance; each reminder is written once per recipient, record and date.
    intervalJob('notifications.reminders', 15 * 60_000, platform.log, async () => {
      await runReminderRound(platform.database.db, new Date(), platform.config.reminders);
    }, { oncePerPeriod: platform.database.db }),
    digestJob(platform),
  ],
});
