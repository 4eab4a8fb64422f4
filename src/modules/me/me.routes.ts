import type { App, Platform } from '../../platform/module.js';
import { callerOf } from '../../platform/auth/principal.js';
import { getMeSchema } from './me.schemas.js';
import { createMeService } from './me.service.js';

export function registerMeRoutes(app: App, platform: Platform): void {
  const service = createMeService({ db: platform.database.db });
  app.get('/me', { schema: getMeSchema }, async (request) => ({
    data: await service.describe(callerOf(request)),
    message: 'Current user',
  }));
}
