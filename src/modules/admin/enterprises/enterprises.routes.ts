import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { App } from '../../../platform/module.js';
import { callerOf } from '../../../platform/auth/principal.js';
import { createEnterpriseSchema, listEnterprisesSchema, updateEnterpriseSchema } from './enterprises.schemas.js';
import type { EnterprisesService } from './enterprises.service.js';

export function registerEnterpriseRoutes(app: App, service: EnterprisesService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    '/admin/enterprises',
    { schema: listEnterprisesSchema },
    async (request) => service.list(callerOf(request), request.query),
  );

  api.post(
    '/admin/enterprises',
    { schema: createEnterpriseSchema, config: { idempotent: true } },
    async (request, reply) => {
      const data = await service.create(callerOf(request), request.body);
      return reply.status(201).send({ data, message: 'Enterprise created' });
    },
  );

  api.patch(
    '/admin/enterprises/:enterprise_id',
    { schema: updateEnterpriseSchema, config: { ifMatch: true } },
    async (request) => ({
      data: await service.update(callerOf(request), request.params.enterprise_id, request.body),
      message: 'Enterprise updated',
    }),
  );
}
