import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { App, Platform } from '../../platform/module.js';
import { callerOf } from '../../platform/auth/principal.js';
import { listAlertsSchema, updateAlertSchema } from './alerts.schemas.js';
import { createAlertsService } from './alerts.service.js';

/** System alerts (4.7, D9.5): super admins list them and acknowledge or resolve them. */
export function registerAlertRoutes(app: App, platform: Platform): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const service = createAlertsService({ db: platform.database.db });

  api.get('/admin/alerts', { schema: listAlertsSchema }, async (request) =>
    service.list(callerOf(request), request.query),
  );

  api.patch(
    '/admin/alerts/:alert_id',
    { schema: updateAlertSchema },
    async (request) => {
      const data = await service.changeStatus(callerOf(request), request.params.alert_id, request.body);
      return { data, message: data.status === 'acknowledged' ? 'Alert acknowledged' : 'Alert resolved' };
    },
  );
}
