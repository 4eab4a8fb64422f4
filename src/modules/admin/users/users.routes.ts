import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { App } from '../../../platform/module.js';
import type { FastifyRequest } from 'fastify';
import { callerOf, type Caller } from '../../../platform/auth/principal.js';
import { answer, termsOf } from '../../../platform/http/conditional/answers.js';
import { changeRoleSchema, createUserSchema, deactivateUserSchema, listUsersSchema, reactivateUserSchema, resendInvitationSchema } from './users.schemas.js';
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

  api.patch(
    '/admin/enterprises/:enterprise_id/users/:user_id',
    { schema: changeRoleSchema, config: { ifMatch: true } },
    async (request) => {
      const { enterprise_id, user_id } = request.params;
      return answer(request, await service.changeRole(callerOf(request), enterprise_id, user_id, request.body, termsOf(request)), 'Role changed');
    },
  );

  api.post('/admin/enterprises/:enterprise_id/users/:user_id/invitation', { schema: resendInvitationSchema }, onMember(service.resendInvitation, 'Invitation sent'));
  api.post('/admin/enterprises/:enterprise_id/users/:user_id/reactivate', { schema: reactivateUserSchema }, onMember(service.reactivate, 'User reactivated'));
}

/** A state action on one member: the service's answer and what it says. */
function onMember<T>(act: (caller: Caller, enterpriseId: string, userId: string) => Promise<T>, message: string) {
  return async (request: FastifyRequest<{ Params: { enterprise_id: string; user_id: string } }>) => ({
    data: await act(callerOf(request), request.params.enterprise_id, request.params.user_id),
    message,
  });
}
