import type { FastifyRequest } from 'fastify';
import { callerOf } from '../../platform/auth/principal.js';
import type { App, Platform } from '../../platform/module.js';
import { registerBraContentRoutes } from './bra-content.routes.js';
import { approveBraSchema, cancelBraSchema, returnBraSchema, submitBraSchema } from './bra-transitions.schemas.js';
import { createBraSchema, getBraSchema, listBrasSchema, updateBraSchema } from './bras.schemas.js';
import { createBrasService } from './bras.service.js';

/** The action POSTs take an optional body: none is the same as `{}` (D2.4). */
async function emptyBodyAsObject(request: FastifyRequest): Promise<void> {
  if (request.body === undefined || request.body === null) request.body = {};
}

export function registerBraRoutes(api: App, platform: Platform): void {
  const service = createBrasService({ db: platform.database.db });

  api.get('/bras', { schema: listBrasSchema }, async (request) => {
    const page = await service.list(callerOf(request), request.query);
    return { ...page, message: 'BRAs retrieved' };
  });

  api.post('/bras', { schema: createBraSchema }, async (request, reply) => {
    const data = await service.create(callerOf(request), request.body);
    return reply.code(201).send({ data, message: 'BRA created' });
  });

  api.get('/bras/:bra_id', { schema: getBraSchema }, async (request) => ({
    data: await service.get(callerOf(request), request.params.bra_id),
    message: 'BRA retrieved',
  }));

  api.patch('/bras/:bra_id', { schema: updateBraSchema }, async (request) => ({
    data: await service.update(callerOf(request), request.params.bra_id, request.body),
    message: 'BRA updated',
  }));

  api.post('/bras/:bra_id/submit', { schema: submitBraSchema, preValidation: emptyBodyAsObject }, async (request) => ({
    data: await service.submit(callerOf(request), request.params.bra_id),
    message: 'BRA submitted for review',
  }));

  api.post('/bras/:bra_id/return', { schema: returnBraSchema, preValidation: emptyBodyAsObject }, async (request) => ({
    data: await service.returnToAssessor(callerOf(request), request.params.bra_id, request.body),
    message: 'BRA returned to the assessor',
  }));

  api.post('/bras/:bra_id/approve', { schema: approveBraSchema, preValidation: emptyBodyAsObject }, async (request) => ({
    data: await service.approve(callerOf(request), request.params.bra_id, request.body),
    message: 'BRA approved',
  }));

  api.post('/bras/:bra_id/cancel', { schema: cancelBraSchema, preValidation: emptyBodyAsObject }, async (request) => ({
    data: await service.cancel(callerOf(request), request.params.bra_id, request.body),
    message: 'BRA cancelled',
  }));

  registerBraContentRoutes(api, service);
}
