import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { callerOf } from '../../../platform/auth/principal.js';
import type { App } from '../../../platform/module.js';
import { created } from '../../../platform/http/conditional/answers.js';
import { loadStarterLibrarySchema } from './starter-library.schemas.js';
import type { StarterLibraryService } from './starter-library.service.js';

export function registerStarterLibraryRoutes(app: App, service: StarterLibraryService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  api.post('/controls/starter-library', { schema: loadStarterLibrarySchema }, async (request, reply) =>
    created(reply, await service.load(callerOf(request)), 'Starter control library loaded'));
}
