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
/** Left out of the OpenAPI document, and public to the /api/v1 gate: the SCIM gate guards these routes. */
const route = (operationId: string) => ({ schema: { hide: true, operationId }, config: { public: true } });

/** What a SCIM resource's endpoints call: list, create, read, replace, patch and delete. */
interface ScimResourceService {
  list(caller: ScimCaller, query: Query): Promise<unknown>;
  create(caller: ScimCaller, body: unknown): Promise<unknown>;
  get(caller: ScimCaller, id: string): Promise<unknown>;
  replace(caller: ScimCaller, id: string, body: unknown): Promise<unknown>;
  patch(caller: ScimCaller, id: string, body: unknown): Promise<unknown>;
  remove(caller: ScimCaller, id: string): Promise<void>;
}

/**
 * A resource's endpoints as RFC 7644 §3 lays them out, the same for Users and Groups: `/Users` lists (GET) and
 * creates (POST, 201), `/Users/{id}` reads, replaces (PUT), patches and deletes (204). Operation names follow
 * the path: `scim.v2.users.list`, `scim.v2.groups.delete`.
 */
function registerResource(scope: App, path: 'Users' | 'Groups', service: ScimResourceService): void {
  const name = `scim.v2.${path.toLowerCase()}`;
  scope.get<{ Querystring: Query }>(`/${path}`, route(`${name}.list`), async (request, reply) => scim(reply, 200, await service.list(callerOf(request), request.query)));
  scope.post(`/${path}`, route(`${name}.create`), async (request, reply) => scim(reply, 201, await service.create(callerOf(request), request.body)));
  scope.get<{ Params: IdParams }>(`/${path}/:id`, route(`${name}.get`), async (request, reply) => scim(reply, 200, await service.get(callerOf(request), uuidOf(request.params.id))));
  scope.put<{ Params: IdParams }>(`/${path}/:id`, route(`${name}.replace`), async (request, reply) =>
    scim(reply, 200, await service.replace(callerOf(request), uuidOf(request.params.id), request.body)),
  );
  scope.patch<{ Params: IdParams }>(`/${path}/:id`, route(`${name}.patch`), async (request, reply) =>
    scim(reply, 200, await service.patch(callerOf(request), uuidOf(request.params.id), request.body)),
  );
  scope.delete<{ Params: IdParams }>(`/${path}/:id`, route(`${name}.delete`), async (request, reply) => {
    await service.remove(callerOf(request), uuidOf(request.params.id));
    return reply.code(204).send();
  });
}

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
      const base = () => `${deps.publicUrl}${SCIM_PREFIX}`;

      scope.get('/ServiceProviderConfig', route('scim.v2.service_provider_config'), async (_request, reply) => scim(reply, 200, serviceProviderConfig(base())));
      scope.get('/ResourceTypes', route('scim.v2.resource_types'), async (_request, reply) => scim(reply, 200, resourceTypes(base())));

      registerResource(scope, 'Users', users);
      registerResource(scope, 'Groups', groups);
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
