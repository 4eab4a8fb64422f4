import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { App } from '../../../platform/module.js';
import { callerOf } from '../../../platform/auth/principal.js';
import { answer, termsOf } from '../../../platform/http/conditional/answers.js';
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
      const data = await service.create(callerOf(request), request.body, termsOf(request));
      return reply.status(201).send({ data, message: 'Enterprise created' });
    },
  );

  api.patch(
    '/admin/enterprises/:enterprise_id',
    { schema: updateEnterpriseSchema, config: { ifMatch: true } },
    async (request) => answer(request, await service.update(callerOf(request), request.params.enterprise_id, request.body, termsOf(request)), 'Enterprise updated'),
  );
}
