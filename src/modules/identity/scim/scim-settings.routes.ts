import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { callerOf } from '../../../platform/auth/principal.js';
import { answer, termsOf, created } from '../../../platform/http/conditional/answers.js';
import type { App } from '../../../platform/module.js';
import { getScimGroupSchema, issueScimTokenSchema, listScimGroupsSchema, listScimTokensSchema, revokeScimTokenSchema, updateScimGroupSchema } from './scim-settings.schemas.js';
import type { ScimSettingsService } from './scim-settings.service.js';

/** SCIM's settings: the enterprise's SCIM tokens and group mappings (client admins, in person). */
export function registerScimSettingsRoutes(app: App, service: ScimSettingsService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get('/scim/tokens', { schema: listScimTokensSchema }, async (request) => service.listTokens(callerOf(request), request.query));

  api.post('/scim/tokens', { schema: issueScimTokenSchema, config: { idempotent: true } }, async (request, reply) =>
    created(reply, await service.issueToken(callerOf(request), request.body, termsOf(request)), 'SCIM token issued: copy it now, it is not shown again'));

  api.delete('/scim/tokens/:scim_token_id', { schema: revokeScimTokenSchema }, async (request) => ({
    data: await service.revokeToken(callerOf(request), request.params.scim_token_id),
    message: 'SCIM token revoked',
  }));

  api.get('/scim/groups', { schema: listScimGroupsSchema }, async (request) => service.listGroups(callerOf(request), request.query));

  api.get('/scim/groups/:group_id', { schema: getScimGroupSchema, config: { etag: true } }, async (request) =>
    answer(request, await service.getGroup(callerOf(request), request.params.group_id)),
  );

  api.patch('/scim/groups/:group_id', { schema: updateScimGroupSchema, config: { ifMatch: true } }, async (request) =>
    answer(request, await service.updateGroup(callerOf(request), request.params.group_id, request.body, termsOf(request)), 'Group mapping updated'),
  );
}
