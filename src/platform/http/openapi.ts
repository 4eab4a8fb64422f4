import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import { SECURITY_SCHEMES, finishDocument } from './openapi-document.js';
import { DOCS_PATH, LICENSE, OPENAPI_PATH, PRODUCT_NAME, TAGS, apiIntroduction } from './openapi-intro.js';

/**
 * The OpenAPI 3.1 document is generated from the route schemas: a route added anywhere appears here
 * with its request, response and error schemas, and finishDocument fills in what every operation needs
 * (success descriptions, examples, security, tags). Registered before any route so that it sees them all.
 */
export async function registerOpenApi(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: PRODUCT_NAME, version: config.version, description: apiIntroduction(config), license: LICENSE },
      servers: [{ url: config.publicUrl }],
      components: { securitySchemes: structuredClone(SECURITY_SCHEMES) as never },
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json['$id'] ?? `def-${i}`) },
    transformObject: (documents) => finishDocument('openapiObject' in documents ? documents.openapiObject : documents.swaggerObject, TAGS) as never,
  });
  // The docs and their assets live outside the /api/v1 gate: no token, no rate-limit budget (reading how
  // to call the API must never use up the allowance for calling it). They are public by declaration.
  await app.register(async (docs) => {
    docs.addHook('onRoute', (route) => {
      route.config = { ...route.config, public: true };
      // Named like every other route (platform.docs.index, platform.docs.json, platform.docs.static, ...).
      route.schema = { ...route.schema, operationId: docsOperation(route.routePath) };
    });
    await docs.register(swaggerUi, {
      routePrefix: DOCS_PATH,
      // Swagger UI's own policy (its inline pieces by hash), framed by nobody like every other page.
      staticCSP: true,
      transformStaticCSP: (header) => header.replace("frame-ancestors 'self'", "frame-ancestors 'none'"),
      theme: { title: `${PRODUCT_NAME}: API reference` },
      // The top bar names the product and shows the document's own address (the one to give a client generator).
      uiConfig: { urls: [{ url: OPENAPI_PATH, name: `${PRODUCT_NAME} (${OPENAPI_PATH})` }], persistAuthorization: true },
    });
  });
  app.get(
    OPENAPI_PATH,
    { schema: { hide: true, operationId: 'platform.openapi' }, config: { public: true } },
    async () => app.swagger(),
  );
}

/** `/json` → platform.docs.json, `/static/*` → platform.docs.static, `/` → platform.docs.index. */
function docsOperation(path: string): string {
  const name = path.replace(/\*/g, '').split('/').filter(Boolean).join('_').replace(/[^a-z0-9_]/gi, '_').toLowerCase();
  return `platform.docs.${name === '' ? 'index' : name}`;
}
