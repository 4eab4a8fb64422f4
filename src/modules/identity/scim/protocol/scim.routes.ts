import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { AppError } from '../../../../platform/errors/app-error.js';
import type { DB } from '../../../../platform/db/schema.js';
import { toAppError } from '../../../../platform/http/error-handler.js';
import type { RateLimiter } from '../../../../platform/http/rate-limit/rate-limit.hook.js';
import type { App } from '../../../../platform/module.js';
import type { MembersProvisioningDeps } from '../../../admin/members-provisioning.service.js';
import { resourceTypes, serviceProviderConfig } from './discovery.js';
import { SCIM_MEDIA_TYPE, scimErrorBody } from './scim-errors.js';
import { registerScimGate } from './scim-gate.routes.js';
import { createScimGroupsService } from './scim-groups.service.js';
import { createScimUsersService, type ScimCaller } from './scim-users.service.js';

export const SCIM_PREFIX = '/scim/v2';

export interface ScimRouteDeps extends MembersProvisioningDeps {
  db: Kysely<DB>;
  limiter: RateLimiter;
  addressLimiter: RateLimiter;
  publicUrl: string;
  invalidToken(request: FastifyRequest): void;
  unexpectedError(error: unknown, request: FastifyRequest): void;
}

type Query = { filter?: string; startIndex?: string; count?: string; excludedAttributes?: string };
type IdParams = { id: string };

const callerOf = (request: FastifyRequest): ScimCaller => request.scimCaller!;
const scim = (reply: FastifyReply, status: number, body: unknown) => reply.code(status).type(SCIM_MEDIA_TYPE).send(body);

/**
 * SCIM 2.0 (RFC 7644) under /scim/v2, outside the /api/v1 gate: its own bearer tokens (scim-gate.ts), its
 * own error shape and media type. Public by declaration like the provider's routes (no /api/v1 token is
 * read here); not in the served OpenAPI document, whose clients are the API's (docs/guide.md documents it).
 */
export async function registerScimRoutes(app: App, deps: ScimRouteDeps): Promise<void> {
  const users = createScimUsersService(deps.db, deps);
  const groups = createScimGroupsService(deps.db, deps);
  await app.register(
    async (scope) => {
      registerScimGate(scope, deps);
      scope.setErrorHandler(async (error, request, reply) => {
        const appError = toAppError(error);
        if (appError.status >= 500) deps.unexpectedError(error, request);
        return scim(reply, appError.status, scimErrorBody(appError));
      });
      scope.setNotFoundHandler(async (request, reply) => scim(reply, 404, scimErrorBody(new AppError('NOT_FOUND', `No SCIM resource at ${request.url.split('?')[0]}`))));
      const route = (operationId: string) => ({ schema: { hide: true, operationId }, config: { public: true } });
      const base = () => `${deps.publicUrl}${SCIM_PREFIX}`;

      scope.get('/ServiceProviderConfig', route('scim.v2.service_provider_config'), async (_request, reply) => scim(reply, 200, serviceProviderConfig(base())));
      scope.get('/ResourceTypes', route('scim.v2.resource_types'), async (_request, reply) => scim(reply, 200, resourceTypes(base())));

      scope.get<{ Querystring: Query }>('/Users', route('scim.v2.users.list'), async (request, reply) => scim(reply, 200, await users.list(callerOf(request), request.query)));
      scope.post('/Users', route('scim.v2.users.create'), async (request, reply) => scim(reply, 201, await users.create(callerOf(request), request.body)));
      scope.get<{ Params: IdParams }>('/Users/:id', route('scim.v2.users.get'), async (request, reply) => scim(reply, 200, await users.get(callerOf(request), uuidOf(request.params.id))));
      scope.put<{ Params: IdParams }>('/Users/:id', route('scim.v2.users.replace'), async (request, reply) =>
        scim(reply, 200, await users.replace(callerOf(request), uuidOf(request.params.id), request.body)),
      );
      scope.patch<{ Params: IdParams }>('/Users/:id', route('scim.v2.users.patch'), async (request, reply) =>
        scim(reply, 200, await users.patch(callerOf(request), uuidOf(request.params.id), request.body)),
      );
      scope.delete<{ Params: IdParams }>('/Users/:id', route('scim.v2.users.delete'), async (request, reply) => {
        await users.remove(callerOf(request), uuidOf(request.params.id));
        return reply.code(204).send();
      });

      scope.get<{ Querystring: Query }>('/Groups', route('scim.v2.groups.list'), async (request, reply) => scim(reply, 200, await groups.list(callerOf(request), request.query)));
      scope.post('/Groups', route('scim.v2.groups.create'), async (request, reply) => scim(reply, 201, await groups.create(callerOf(request), request.body)));
      scope.get<{ Params: IdParams }>('/Groups/:id', route('scim.v2.groups.get'), async (request, reply) => scim(reply, 200, await groups.get(callerOf(request), uuidOf(request.params.id))));
      scope.put<{ Params: IdParams }>('/Groups/:id', route('scim.v2.groups.replace'), async (request, reply) =>
        scim(reply, 200, await groups.replace(callerOf(request), uuidOf(request.params.id), request.body)),
      );
      scope.patch<{ Params: IdParams }>('/Groups/:id', route('scim.v2.groups.patch'), async (request, reply) =>
        scim(reply, 200, await groups.patch(callerOf(request), uuidOf(request.params.id), request.body)),
      );
      scope.delete<{ Params: IdParams }>('/Groups/:id', route('scim.v2.groups.delete'), async (request, reply) => {
        await groups.remove(callerOf(request), uuidOf(request.params.id));
        return reply.code(204).send();
      });
    },
    { prefix: SCIM_PREFIX },
  );
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** An id that is no UUID names nothing here: 404, as an unknown one. */
function uuidOf(id: string): string {
  if (!UUID.test(id)) throw new AppError('NOT_FOUND', 'Resource not found');
  return id;
}
