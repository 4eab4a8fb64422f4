import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { callerOf } from '../../../platform/auth/principal.js';
import { termsOf } from '../../../platform/http/conditional/answers.js';
import type { App } from '../../../platform/module.js';
import { addSuperAdminSchema, listSuperAdminsSchema, removeSuperAdminSchema } from './super-admins.schemas.js';
import type { SuperAdminsService } from './super-admins.service.js';

export function registerSuperAdminRoutes(app: App, service: SuperAdminsService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get('/admin/super-admins', { schema: listSuperAdminsSchema }, async (request) => ({ data: await service.list(callerOf(request)) }));

  api.post('/admin/super-admins', { schema: addSuperAdminSchema, config: { idempotent: true } }, async (request, reply) => {
    const { created, data } = await service.add(callerOf(request), request.body, termsOf(request));
    return reply.status(created ? 201 : 200).send({ data, message: created ? 'Super admin invited' : 'Super admin added' });
  });

  api.delete('/admin/super-admins/:user_id', { schema: removeSuperAdminSchema }, async (request) => {
    await service.remove(callerOf(request), request.params.user_id);
    return { message: 'Super admin removed' };
  });
}
