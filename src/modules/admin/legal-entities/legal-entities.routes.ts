import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { App, Platform } from '../../../app.js';
import { callerOf } from '../../../platform/auth/principal.js';
import {
  createBusinessUnitSchema,
  createLegalEntitySchema,
  listLegalEntitiesSchema,
} from './legal-entities.schemas.js';
import { createBusinessUnit, createLegalEntity, listVisibleLegalEntities } from './legal-entities.service.js';

export function registerLegalEntityRoutes(app: App, platform: Platform): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = platform.database;

  api.get(
    '/api/v1/legal-entities',
    { schema: listLegalEntitiesSchema, config: { operation: 'legal_entities.list' } },
    async (request) => ({ data: await listVisibleLegalEntities(db, callerOf(request)) }),
  );

  api.post(
    '/api/v1/admin/legal-entities',
    { schema: createLegalEntitySchema, config: { operation: 'legal_entities.create' } },
    async (request, reply) => {
      const data = await createLegalEntity(db, callerOf(request), request.body);
      return reply.code(201).send({ data, message: 'Legal entity created' });
    },
  );

  api.post(
    '/api/v1/admin/legal-entities/:id/business-units',
    { schema: createBusinessUnitSchema, config: { operation: 'business_units.create' } },
    async (request, reply) => {
      const data = await createBusinessUnit(db, callerOf(request), request.params.id, request.body);
      return reply.code(201).send({ data, message: 'Business unit created' });
    },
  );
}
