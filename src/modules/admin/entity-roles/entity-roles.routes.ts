import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { App } from '../../../platform/module.js';
import { callerOf } from '../../../platform/auth/principal.js';
import { termsOf } from '../../../platform/http/conditional/answers.js';
import { createEntityRoleSchema, deleteEntityRoleSchema, listEntityRolesSchema } from './entity-roles.schemas.js';
import type { EntityRolesService } from './entity-roles.service.js';

export function registerEntityRoleRoutes(app: App, service: EntityRolesService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    '/admin/users/:user_id/entity-roles',
    { schema: listEntityRolesSchema },
    async (request) => ({ data: await service.list(callerOf(request), request.params.user_id) }),
  );

  api.post(
    '/admin/users/:user_id/entity-roles',
    { schema: createEntityRoleSchema, config: { idempotent: true } },
    async (request, reply) => {
      const data = await service.create(callerOf(request), request.params.user_id, request.body, termsOf(request));
      return reply.status(201).send({ data, message: 'Entity role assigned' });
    },
  );

  api.delete(
    '/admin/users/:user_id/entity-roles/:role_id',
    { schema: deleteEntityRoleSchema },
    async (request) => {
      await service.remove(callerOf(request), request.params.user_id, request.params.role_id);
      return { message: 'Entity role removed' };
    },
  );
}
