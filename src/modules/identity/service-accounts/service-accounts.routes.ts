import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { callerOf } from '../../../platform/auth/principal.js';
import { answer, termsOf, created } from '../../../platform/http/conditional/answers.js';
import type { App } from '../../../platform/module.js';
import {
  createServiceAccountSchema,
  deactivateServiceAccountSchema,
  getServiceAccountSchema,
  issueTokenSchema,
  listServiceAccountsSchema,
  listTokensSchema,
  revokeTokenSchema,
  rotateTokenSchema,
  updateServiceAccountSchema,
} from './service-accounts.schemas.js';
import type { ServiceAccountsService } from './service-accounts.service.js';
import type { TokensService } from './tokens.service.js';

/** Service accounts and their tokens (client admins, in person). */
export function registerServiceAccountRoutes(app: App, accounts: ServiceAccountsService, tokens: TokensService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.post('/service-accounts', { schema: createServiceAccountSchema, config: { idempotent: true } }, async (request, reply) =>
    created(reply, await accounts.create(callerOf(request), request.body, termsOf(request)), 'Service account created'));

  api.get('/service-accounts', { schema: listServiceAccountsSchema }, async (request) => accounts.list(callerOf(request), request.query));

  api.get('/service-accounts/:service_account_id', { schema: getServiceAccountSchema, config: { etag: true } }, async (request) =>
    answer(request, await accounts.get(callerOf(request), request.params.service_account_id)),
  );

  api.patch('/service-accounts/:service_account_id', { schema: updateServiceAccountSchema, config: { ifMatch: true } }, async (request) =>
    answer(request, await accounts.update(callerOf(request), request.params.service_account_id, request.body, termsOf(request)), 'Service account updated'),
  );

  api.delete('/service-accounts/:service_account_id', { schema: deactivateServiceAccountSchema, config: { ifMatch: true } }, async (request) => {
    await accounts.deactivate(callerOf(request), request.params.service_account_id, termsOf(request));
    return { message: 'Service account deactivated; its tokens are revoked' };
  });

  api.get('/service-accounts/:service_account_id/tokens', { schema: listTokensSchema }, async (request) =>
    tokens.list(callerOf(request), request.params.service_account_id, request.query),
  );

  api.post('/service-accounts/:service_account_id/tokens', { schema: issueTokenSchema, config: { idempotent: true } }, async (request, reply) =>
    created(reply, await tokens.issue(callerOf(request), request.params.service_account_id, request.body, termsOf(request)), 'Token issued: copy it now, it is not shown again'));

  api.post(
    '/service-accounts/:service_account_id/tokens/:token_id/rotate',
    { schema: rotateTokenSchema, config: { idempotent: true } },
    async (request, reply) => {
      const { service_account_id, token_id } = request.params;
      const data = await tokens.rotate(callerOf(request), service_account_id, token_id, request.body, termsOf(request));
      return reply.code(201).send({ data, message: 'Token rotated: copy the new one now, it is not shown again' });
    },
  );

  api.delete('/service-accounts/:service_account_id/tokens/:token_id', { schema: revokeTokenSchema }, async (request) => ({
    data: await tokens.revoke(callerOf(request), request.params.service_account_id, request.params.token_id),
    message: 'Token revoked',
  }));
}
