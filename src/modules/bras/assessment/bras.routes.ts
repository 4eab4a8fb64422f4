import { callerOf } from '../../../platform/auth/principal.js';
import { answer, termsOf, created } from '../../../platform/http/conditional/answers.js';
import type { App } from '../../../platform/module.js';
import { createBraSchema, getBraSchema, listBrasSchema, updateBraSchema } from './bras.schemas.js';
import type { BrasService } from './bras.service.js';

/** The BRAs themselves (2.1, 4.2): list, create, read, change. */
export function registerBraRoutes(api: App, service: BrasService): void {

  api.get('/bras', { schema: listBrasSchema }, async (request) => {
    const page = await service.list(callerOf(request), request.query);
    return { ...page, message: 'BRAs retrieved' };
  });

  api.post('/bras', { schema: createBraSchema, config: { idempotent: true } }, async (request, reply) =>
    created(reply, await service.create(callerOf(request), request.body, termsOf(request)), 'BRA created'));

  api.get('/bras/:bra_id', { schema: getBraSchema, config: { etag: true } }, async (request) =>
    answer(request, await service.get(callerOf(request), request.params.bra_id), 'BRA retrieved'),
  );

  api.patch('/bras/:bra_id', { schema: updateBraSchema, config: { ifMatch: true } }, async (request) =>
    answer(request, await service.update(callerOf(request), request.params.bra_id, request.body, termsOf(request)), 'BRA updated'),
  );
}
