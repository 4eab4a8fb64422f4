import type { FastifyRequest } from 'fastify';
import { callerOf } from '../../../platform/auth/principal.js';
import { answer, termsOf } from '../../../platform/http/conditional/answers.js';
import type { App } from '../../../platform/module.js';
import { approveBraSchema, cancelBraSchema, returnBraSchema, submitBraSchema } from './transitions.schemas.js';
import type { BraTransitionsService } from './transitions.service.js';

/** The action POSTs take an optional body: none is the same as `{}` (D2.4). */
async function emptyBodyAsObject(request: FastifyRequest): Promise<void> {
  if (request.body === undefined || request.body === null) request.body = {};
}

/** A BRA's moves (3.1, D6.7): submit, return, approve, cancel. */
export function registerBraTransitionRoutes(api: App, service: BraTransitionsService): void {
  api.post('/bras/:bra_id/submit', { schema: submitBraSchema, config: { ifMatch: true }, preValidation: emptyBodyAsObject }, async (request) =>
    answer(request, await service.submit(callerOf(request), request.params.bra_id, termsOf(request)), 'BRA submitted for review'),
  );

  api.post('/bras/:bra_id/return', { schema: returnBraSchema, config: { ifMatch: true }, preValidation: emptyBodyAsObject }, async (request) =>
    answer(request, await service.returnToAssessor(callerOf(request), request.params.bra_id, request.body, termsOf(request)), 'BRA returned to the assessor'),
  );

  api.post('/bras/:bra_id/approve', { schema: approveBraSchema, config: { ifMatch: true }, preValidation: emptyBodyAsObject }, async (request) =>
    answer(request, await service.approve(callerOf(request), request.params.bra_id, request.body, termsOf(request)), 'BRA approved'),
  );

  api.post('/bras/:bra_id/cancel', { schema: cancelBraSchema, config: { ifMatch: true }, preValidation: emptyBodyAsObject }, async (request) =>
    answer(request, await service.cancel(callerOf(request), request.params.bra_id, request.body, termsOf(request)), 'BRA cancelled'),
  );
}
