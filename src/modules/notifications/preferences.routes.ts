import { callerOf } from '../../platform/auth/principal.js';
import type { App } from '../../platform/module.js';
import { getDefaultsSchema, getPreferencesSchema, updateDefaultsSchema, updatePreferencesSchema } from './preferences.schemas.js';
import type { PreferencesService } from './preferences.service.js';

/** How people hear of notifications by mail (issue 49): a person's own choices, the enterprise's defaults. */
export function registerPreferenceRoutes(api: App, service: PreferencesService): void {
  const answer = async <T>(data: Promise<T>, message: string) => ({ data: await data, message });
  api.get('/me/notification-preferences', { schema: getPreferencesSchema }, (request) => answer(service.get(callerOf(request)), 'Notification preferences retrieved'));
  api.put('/me/notification-preferences', { schema: updatePreferencesSchema }, (request) =>
    answer(service.update(callerOf(request), request.body.preferences), 'Notification preferences saved'));
  api.get('/notification-defaults', { schema: getDefaultsSchema }, (request) => answer(service.getDefaults(callerOf(request)), 'Notification defaults retrieved'));
  api.put('/notification-defaults', { schema: updateDefaultsSchema }, (request) =>
    answer(service.updateDefaults(callerOf(request), request.body.defaults), 'Notification defaults saved'));
}
