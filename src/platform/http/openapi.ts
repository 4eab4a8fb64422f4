import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';

/**
 * The OpenAPI 3.1 document is generated from the route schemas: a route added anywhere appears here
 * with its request, response and error schemas. Registered before any route so that it sees them all.
 */
export async function registerOpenApi(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Business Risk Assessment and Control Assurance API',
        version: config.version,
        description:
          'Multi-tenant API for Business Risk Assessments, control assurance, mitigation actions, governance and audit. ' +
          'Authenticate with a bearer access token from the identity provider (the embedded one is under /auth/v1).',
      },
      servers: [{ url: config.publicUrl }],
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
      security: [{ bearerAuth: [] }],
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json['$id'] ?? `def-${i}`) },
  });
  await app.register(async (docs) => {
    // The documents are public: outside the /api/v1 gate, and said so on each of their routes. Each is
    // named like every other route (platform.docs.index, platform.docs.json, platform.docs.static, ...).
    docs.addHook('onRoute', (route) => {
      route.config = { ...route.config, public: true };
      route.schema = { ...route.schema, operationId: docsOperation(route.routePath) };
    });
    await docs.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });
  });
  app.get(
    '/api/v1/openapi.json',
    { schema: { hide: true, operationId: 'platform.openapi' }, config: { public: true } },
    async () => app.swagger(),
  );
}

/** `/json` → platform.docs.json, `/static/*` → platform.docs.static, `/` → platform.docs.index. */
function docsOperation(path: string): string {
  const name = path.replace(/\*/g, '').split('/').filter(Boolean).join('_').replace(/[^a-z0-9_]/gi, '_').toLowerCase();
  return `platform.docs.${name === '' ? 'index' : name}`;
}
