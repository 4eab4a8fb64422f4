import { callerOf } from '../../platform/auth/principal.js';
import type { App } from '../../platform/module.js';
import { listNotificationsSchema, markReadSchema } from './notifications.schemas.js';
import type { NotificationsService } from './notifications.service.js';

/** The notification centre (issue 49). */
export function registerNotificationRoutes(api: App, service: NotificationsService): void {
  api.get('/notifications', { schema: listNotificationsSchema }, async (request) => ({
    ...(await service.list(callerOf(request), request.query)),
    message: 'Notifications retrieved',
  }));

  api.post('/notifications/read', { schema: markReadSchema }, async (request) => ({
    data: await service.markRead(callerOf(request), request.body),
    message: 'Notifications marked read',
  }));
}
