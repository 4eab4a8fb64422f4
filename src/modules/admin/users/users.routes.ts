import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { App } from '../../../platform/module.js';
import { callerOf } from '../../../platform/auth/principal.js';
import { termsOf } from '../../../platform/http/conditional/answers.js';
import { createUserSchema, deactivateUserSchema, listUsersSchema, reactivateUserSchema, resendInvitationSchema } from './users.schemas.js';
import type { UsersService } from './users.service.js';

export function registerUserRoutes(app: App, service: UsersService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    '/admin/enterprises/:enterprise_id/users',
    { schema: listUsersSchema },
    async (request) => ({
      data: await service.list(callerOf(request), request.params.enterprise_id, request.query.include_inactive === true),
    }),
  );

  api.post(
    '/admin/enterprises/:enterprise_id/users',
    { schema: createUserSchema, config: { idempotent: true } },
    async (request, reply) => {
      const data = await service.create(callerOf(request), request.params.enterprise_id, request.body, termsOf(request));
      return reply.status(201).send({ data, message: 'User created' });
    },
  );

  api.delete(
    '/admin/enterprises/:enterprise_id/users/:user_id',
    { schema: deactivateUserSchema },
    async (request) => {
      await service.deactivate(callerOf(request), request.params.enterprise_id, request.params.user_id);
      return { message: 'User deactivated' };
    },
  );

  api.post(
    '/admin/enterprises/:enterprise_id/users/:user_id/invitation',
    { schema: resendInvitationSchema },
    async (request) => ({
      data: await service.resendInvitation(callerOf(request), request.params.enterprise_id, request.params.user_id),
      message: 'Invitation sent',
    }),
  );

  api.post(
    '/admin/enterprises/:enterprise_id/users/:user_id/reactivate',
    { schema: reactivateUserSchema },
    async (request) => ({
      data: await service.reactivate(callerOf(request), request.params.enterprise_id, request.params.user_id),
      message: 'User reactivated',
    }),
  );
}
