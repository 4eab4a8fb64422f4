import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { callerOf } from '../../../platform/auth/principal.js';
import { answer, created, termsOf } from '../../../platform/http/conditional/answers.js';
import type { App } from '../../../platform/module.js';
import {
  attestSsoDomainSchema,
  createSsoConnectionSchema,
  createSsoDomainSchema,
  deleteSsoConnectionSchema,
  deleteSsoDomainSchema,
  getSsoConnectionSchema,
  listSsoConnectionsSchema,
  listEnterpriseSsoDomainsSchema,
  listSsoDomainsSchema,
  updateSsoConnectionSchema,
  verifySsoDomainSchema,
} from './sso-settings.schemas.js';
import type { SsoSettingsService } from './sso-settings.service.js';

/** Single sign-on's settings: the enterprise's connections and e-mail domains (client admins, in person). */
export function registerSsoSettingsRoutes(app: App, service: SsoSettingsService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get('/sso/connections', { schema: listSsoConnectionsSchema }, async (request) => service.listConnections(callerOf(request), request.query));

  api.post('/sso/connections', { schema: createSsoConnectionSchema, config: { idempotent: true } }, async (request, reply) =>
    created(reply, await service.createConnection(callerOf(request), request.body, termsOf(request)), 'SSO connection created'));

  api.get('/sso/connections/:connection_id', { schema: getSsoConnectionSchema, config: { etag: true } }, async (request) => {
    const connection = await service.getConnection(callerOf(request), request.params.connection_id);
    return answer(request, connection);
  });

  api.delete('/sso/connections/:connection_id', { schema: deleteSsoConnectionSchema, config: { ifMatch: true } }, async (request) => {
    await service.deleteConnection(callerOf(request), request.params.connection_id, termsOf(request));
    return { message: 'SSO connection deleted' };
  });

  api.patch('/sso/connections/:connection_id', { schema: updateSsoConnectionSchema, config: { ifMatch: true } }, async (request) =>
    answer(request, await service.updateConnection(callerOf(request), request.params.connection_id, request.body, termsOf(request)), 'SSO connection updated'),
  );

  api.get('/sso/domains', { schema: listSsoDomainsSchema }, async (request) => service.listDomains(callerOf(request), request.query));

  api.post('/sso/domains', { schema: createSsoDomainSchema, config: { idempotent: true } }, async (request, reply) =>
    created(reply, await service.createDomain(callerOf(request), request.body, termsOf(request)), 'Domain claimed: publish its TXT record, then verify it'),
  );

  api.post('/sso/domains/:domain_id/verify', { schema: verifySsoDomainSchema }, async (request) => ({
    data: await service.verifyDomain(callerOf(request), request.params.domain_id),
    message: 'Domain verified',
  }));

  api.delete('/sso/domains/:domain_id', { schema: deleteSsoDomainSchema }, async (request) => {
    await service.deleteDomain(callerOf(request), request.params.domain_id);
    return { message: 'Domain removed' };
  });

  api.get('/admin/enterprises/:enterprise_id/sso/domains', { schema: listEnterpriseSsoDomainsSchema }, async (request) =>
    service.listEnterpriseDomains(callerOf(request), request.params.enterprise_id, request.query),
  );

  api.post('/admin/sso/domains/:domain_id/verify', { schema: attestSsoDomainSchema }, async (request) => ({
    data: await service.attestDomain(callerOf(request), request.params.domain_id),
    message: 'Domain verified',
  }));
}
