import type { App } from '../../platform/module.js';
import { callerOf } from '../../platform/auth/principal.js';
import { getMeSchema } from './me.schemas.js';
import type { MeService } from './me.service.js';

export function registerMeRoutes(app: App, service: MeService): void {
  app.get('/me', { schema: getMeSchema, config: { etag: true } }, async (request) => ({
    data: await service.describe(callerOf(request)),
    message: 'Current user',
  }));
}
