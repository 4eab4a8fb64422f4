import { defineModule } from '../../platform/module.js';
import { registerNotificationRoutes } from './notifications.routes.js';
import { createNotificationsService } from './notifications.service.js';

/** What the service tells people (issue 49): the notification centre; other modules notify through notify.ts. */
export const notificationsModule = defineModule({
  name: 'notifications',
  services: (db) => createNotificationsService({ db }),
  routes: registerNotificationRoutes,
});
