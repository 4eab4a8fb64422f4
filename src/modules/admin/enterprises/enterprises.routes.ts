import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { App, Platform } from '../../../app.js';
import { callerOf } from '../../../platform/auth/principal.js';
import { createEnterpriseSchema, listEnterprisesSchema, updateEnterpriseSchema } from './enterprises.schemas.js';
import { createEnterprisesService } from './enterprises.service.js';

export function registerEnterpriseRoutes(app: App, platform: Platform): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const service = createEnterprisesService({ db: platform.database.db, tierPricesCents: platform.config.tierPricesCents });

  api.get(
    '/api/v1/admin/enterprises',
    { schema: listEnterprisesSchema, config: { operation: 'admin.enterprises.list' } },
    async (request) => service.list(callerOf(request), request.query),
  );

  api.post(
    '/api/v1/admin/enterprises',
    { schema: createEnterpriseSchema, config: { operation: 'admin.enterprises.create' } },
    async (request, reply) => {
      const data = await service.create(callerOf(request), request.body);
      return reply.status(201).send({ data, message: 'Enterprise created' });
    },
  );

  api.patch(
    '/api/v1/admin/enterprises/:enterprise_id',
    { schema: updateEnterpriseSchema, config: { operation: 'admin.enterprises.update' } },
    async (request) => ({
      data: await service.update(callerOf(request), request.params.enterprise_id, request.body),
      message: 'Enterprise updated',
    }),
  );
}
