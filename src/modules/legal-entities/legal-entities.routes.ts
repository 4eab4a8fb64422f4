import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { App } from '../../platform/module.js';
import { callerOf } from '../../platform/auth/principal.js';
import {
  createBusinessUnitSchema,
  createLegalEntitySchema,
  listLegalEntitiesSchema,
} from './legal-entities.schemas.js';
import type { LegalEntitiesService } from './legal-entities.service.js';

export function registerLegalEntityRoutes(app: App, service: LegalEntitiesService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    '/legal-entities',
    { schema: listLegalEntitiesSchema },
    async (request) => ({ data: await service.listVisible(callerOf(request)) }),
  );

  api.post(
    '/admin/legal-entities',
    { schema: createLegalEntitySchema, config: { idempotent: true } },
    async (request, reply) => {
      const data = await service.create(callerOf(request), request.body);
      return reply.code(201).send({ data, message: 'Legal entity created' });
    },
  );

  api.post(
    '/admin/legal-entities/:id/business-units',
    { schema: createBusinessUnitSchema, config: { idempotent: true } },
    async (request, reply) => {
      const data = await service.createBusinessUnit(callerOf(request), request.params.id, request.body);
      return reply.code(201).send({ data, message: 'Business unit created' });
    },
  );
}
