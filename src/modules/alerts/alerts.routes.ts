import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { App } from '../../platform/module.js';
import { callerOf } from '../../platform/auth/principal.js';
import { answer, termsOf } from '../../platform/http/conditional/answers.js';
import { listAlertsSchema, updateAlertSchema } from './alerts.schemas.js';
import type { AlertsService } from './alerts.service.js';

/** System alerts (4.7, D9.5): super admins list them and acknowledge or resolve them. */
export function registerAlertRoutes(app: App, service: AlertsService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get('/admin/alerts', { schema: listAlertsSchema }, async (request) =>
    service.list(callerOf(request), request.query),
  );

  api.patch(
    '/admin/alerts/:alert_id',
    { schema: updateAlertSchema, config: { ifMatch: true } },
    async (request) => {
      const result = await service.changeStatus(callerOf(request), request.params.alert_id, request.body, termsOf(request));
      return answer(request, result, result.data.status === 'acknowledged' ? 'Alert acknowledged' : 'Alert resolved');
    },
  );
}
