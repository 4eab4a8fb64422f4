import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { App } from '../../platform/module.js';
import { callerOf } from '../../platform/auth/principal.js';
import { answer, termsOf, created } from '../../platform/http/conditional/answers.js';
import {
  archiveBusinessUnitSchema,
  archiveLegalEntitySchema,
  createBusinessUnitSchema,
  createLegalEntitySchema,
  listLegalEntitiesSchema,
  updateBusinessUnitSchema,
  updateLegalEntitySchema,
} from './legal-entities.schemas.js';
import type { LegalEntitiesService } from './legal-entities.service.js';

export function registerLegalEntityRoutes(app: App, service: LegalEntitiesService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    '/legal-entities',
    { schema: listLegalEntitiesSchema },
    async (request) => ({ data: await service.listVisible(callerOf(request), request.query.include_archived === true) }),
  );

  api.post(
    '/admin/legal-entities',
    { schema: createLegalEntitySchema, config: { idempotent: true } },
    async (request, reply) =>
      created(reply, await service.create(callerOf(request), request.body, termsOf(request)), 'Legal entity created'),
  );

  api.post(
    '/admin/legal-entities/:id/business-units',
    { schema: createBusinessUnitSchema, config: { idempotent: true } },
    async (request, reply) =>
      created(reply, await service.createBusinessUnit(callerOf(request), request.params.id, request.body, termsOf(request)), 'Business unit created'),
  );

  api.patch('/legal-entities/:id', { schema: updateLegalEntitySchema, config: { ifMatch: true } }, async (request) =>
    answer(request, await service.update(callerOf(request), request.params.id, request.body, termsOf(request)), 'Legal entity updated'),
  );

  api.post('/legal-entities/:id/archive', { schema: archiveLegalEntitySchema, config: { ifMatch: true } }, async (request) =>
    answer(request, await service.archive(callerOf(request), request.params.id, termsOf(request)), 'Legal entity archived'),
  );

  api.patch('/business-units/:id', { schema: updateBusinessUnitSchema, config: { ifMatch: true } }, async (request) =>
    answer(request, await service.updateBusinessUnit(callerOf(request), request.params.id, request.body, termsOf(request)), 'Business unit updated'),
  );

  api.post('/business-units/:id/archive', { schema: archiveBusinessUnitSchema, config: { ifMatch: true } }, async (request) =>
    answer(request, await service.archiveBusinessUnit(callerOf(request), request.params.id, termsOf(request)), 'Business unit archived'),
  );
}
