import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { callerOf } from '../../platform/auth/principal.js';
import type { App } from '../../platform/module.js';
import { enterpriseHealthSchema } from './health.schemas.js';
import type { HealthService } from './health.service.js';

export function registerHealthRoutes(app: App, service: HealthService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  api.get('/admin/enterprises/:enterprise_id/health', { schema: enterpriseHealthSchema }, async (request) => ({
    data: await service.detail(callerOf(request), request.params.enterprise_id),
    message: 'Enterprise health',
  }));
}
