import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { callerOf } from '../../../platform/auth/principal.js';
import type { App } from '../../../platform/module.js';
import { loadStarterLibrarySchema } from './starter-library.schemas.js';
import type { StarterLibraryService } from './starter-library.service.js';

export function registerStarterLibraryRoutes(app: App, service: StarterLibraryService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  api.post('/controls/starter-library', { schema: loadStarterLibrarySchema }, async (request, reply) => {
    const data = await service.load(callerOf(request));
    return reply.code(201).send({ data, message: 'Starter control library loaded' });
  });
}
