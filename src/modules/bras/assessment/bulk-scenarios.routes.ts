import { callerOf } from '../../../platform/auth/principal.js';
import { termsOf } from '../../../platform/http/conditional/answers.js';
import type { App } from '../../../platform/module.js';
import { addScenariosSchema } from './bulk-scenarios.schemas.js';
import type { BulkScenariosService } from './bulk-scenarios.service.js';

/** Many catalogue scenarios added to a BRA at once (issue 35). */
export function registerBulkScenarioRoutes(api: App, service: BulkScenariosService): void {
  api.post('/bras/:bra_id/scenarios/bulk', { schema: addScenariosSchema, config: { idempotent: true } }, async (request, reply) => {
    const data = await service.add(callerOf(request), request.params.bra_id, request.body, termsOf(request));
    return reply.code(201).send({ data, message: `${data.length} scenarios added` });
  });
}
