import type { App, Platform } from '../../platform/module.js';
import { callerOf } from '../../platform/auth/principal.js';
import {
  archiveActionSchema,
  bulkUpdateActionsSchema,
  createActionSchema,
  listActionsSchema,
  updateActionSchema,
} from './actions.schemas.js';
import { createActionsService } from './actions.service.js';
import { enterpriseHealthCheck } from './enterprise-health.check.js';

/** Mitigation actions (4.4); the module also registers the enterprise_health check (D9.5) once, here. */
export function registerActionRoutes(api: App, platform: Platform): void {
  const service = createActionsService({ db: platform.database.db });
  platform.monitor.addPeriodicCheck(enterpriseHealthCheck());

  api.get('/mitigation-actions', { schema: listActionsSchema }, async (request) => service.list(callerOf(request), request.query));

  api.post('/mitigation-actions', { schema: createActionSchema }, async (request, reply) => {
    const data = await service.create(callerOf(request), request.body);
    return reply.code(201).send({ data, message: 'Mitigation action created' });
  });

  api.patch('/mitigation-actions/:action_id', { schema: updateActionSchema }, async (request) => {
    const data = await service.update(callerOf(request), request.params.action_id, request.body);
    return { data, message: 'Mitigation action updated' };
  });

  api.post('/mitigation-actions/bulk-update', { schema: bulkUpdateActionsSchema }, async (request) => {
    const data = await service.bulkUpdate(callerOf(request), request.body);
    return { data, message: `${data.updated_count} mitigation actions updated` };
  });

  api.post('/mitigation-actions/:action_id/archive', { schema: archiveActionSchema }, async (request) => {
    const { archived } = await service.archive(callerOf(request), request.params.action_id);
    return { message: archived ? 'Mitigation action archived' : 'Mitigation action was already archived' };
  });
}
