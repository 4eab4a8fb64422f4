import { callerOf } from '../../platform/auth/principal.js';
import type { App } from '../../platform/module.js';
import { getDefaultsSchema, getPreferencesSchema, updateDefaultsSchema, updatePreferencesSchema } from './preferences.schemas.js';
import type { PreferencesService } from './preferences.service.js';

/** How people hear of notifications by mail (issue 49): a person's own choices, the enterprise's defaults. */
export function registerPreferenceRoutes(api: App, service: PreferencesService): void {
  api.get('/me/notification-preferences', { schema: getPreferencesSchema }, async (request) => ({
    data: await service.get(callerOf(request)),
    message: 'Notification preferences retrieved',
  }));

  api.put('/me/notification-preferences', { schema: updatePreferencesSchema }, async (request) => ({
    data: await service.update(callerOf(request), request.body.preferences),
    message: 'Notification preferences saved',
  }));

  api.get('/notification-defaults', { schema: getDefaultsSchema }, async (request) => ({
    data: await service.getDefaults(callerOf(request)),
    message: 'Notification defaults retrieved',
  }));

  api.put('/notification-defaults', { schema: updateDefaultsSchema }, async (request) => ({
    data: await service.updateDefaults(callerOf(request), request.body.defaults),
    message: 'Notification defaults saved',
  }));
}
