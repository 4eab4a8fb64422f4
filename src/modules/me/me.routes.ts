import type { App, Platform } from '../../app.js';
import { callerOf } from '../../platform/auth/principal.js';
import { getMeSchema } from './me.schemas.js';
import { describeCaller } from './me.service.js';

export function registerMeRoutes(app: App, platform: Platform): void {
  app.get('/api/v1/me', { schema: getMeSchema, config: { operation: 'me.get' } }, async (request) => ({
    data: await describeCaller(platform.database.db, callerOf(request)),
    message: 'Current user',
  }));
}
