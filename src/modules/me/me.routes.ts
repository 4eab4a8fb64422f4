import type { App, Platform } from '../../platform/module.js';
import { callerOf } from '../../platform/auth/principal.js';
import { getMeSchema } from './me.schemas.js';
import { describeCaller } from './me.service.js';

export function registerMeRoutes(app: App, platform: Platform): void {
  app.get('/me', { schema: getMeSchema }, async (request) => ({
    data: await describeCaller(platform.database.db, callerOf(request)),
    message: 'Current user',
  }));
}
