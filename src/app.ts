import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.js';
import type { Database } from './platform/db/engine.js';
import { createPrincipalResolver, type PrincipalResolver } from './platform/auth/principal-resolver.js';
import { registerAuthentication } from './platform/auth/authenticate.js';
import type { AuthSecrets } from './platform/auth/secrets.js';
import { createTokenVerifier, type TokenVerifier } from './platform/auth/token-verifier.js';
import { recordAccessDenied } from './platform/audit/access-denied.js';
import { BODY_LIMIT_BYTES, registerJsonBodyParser } from './platform/http/body-parser.js';
import { frameworkErrorHandler, registerErrorHandler } from './platform/http/error-handler.js';
import { registerGracefulClose } from './platform/http/graceful-close.js';
import { registerHealthRoute } from './platform/http/health.routes.js';
import { loggerOptions } from './platform/http/logging.js';
import { registerOpenApi } from './platform/http/openapi.js';
import { requestIdFor } from './platform/http/request-id.js';
import { ErrorBody } from './platform/http/schemas.js';
import { schemaController } from './platform/http/validation.js';
import './platform/http/route-config.js';
import type { Monitor } from './platform/monitoring/monitor.js';
import { registerRateLimits } from './platform/http/rate-limit/rate-limit.hook.js';
import type { RateLimitStore } from './platform/http/rate-limit/rate-limit-store.js';
import { registerModules } from './modules/index.js';
import { registerIdentityProvider } from './platform/auth/provider/provider.routes.js';

export interface AppDeps {
  config: Config;
  database: Database;
  /** The embedded provider's keys; null in external mode. */
  secrets: AuthSecrets | null;
  monitor: Monitor;
  rateLimitStore: RateLimitStore;
  /** Tests pass false; the service passes nothing and gets pino JSON at config.logLevel. */
  logger?: FastifyServerOptions['logger'];
  /** Mounted after the modules: the platform suites use it for probe routes (a route that throws, ...). */
  extend?: (app: App, platform: Platform) => void | Promise<void>;
}

/** What the platform hands every module: explicit, narrow, nothing read from globals. */
export interface Platform {
  config: Config;
  database: Database;
  secrets: AuthSecrets | null;
  monitor: Monitor;
  verify: TokenVerifier;
  principals: PrincipalResolver;
}

export type App = FastifyInstance;

/** The composition root: platform plugins, then each module's routes. Never listens. */
export async function buildApp(deps: AppDeps): Promise<App> {
  const { config, database, monitor } = deps;
  const app = Fastify({
    logger: deps.logger ?? loggerOptions(config.logLevel),
    genReqId: requestIdFor,
    requestIdHeader: false,
    bodyLimit: BODY_LIMIT_BYTES,
    schemaController: schemaController(),
    ajv: undefined,
    // Requests already on an open connection while closing are served (their responses say Connection: close).
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    frameworkErrors: frameworkErrorHandler,
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.addSchema(ErrorBody);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addHook('onResponse', async (_request, reply) => {
    monitor.recordResponse(reply.elapsedTime);
  });
  registerJsonBodyParser(app);
  registerGracefulClose(app);

  const verify = createTokenVerifier(config, deps.secrets);
  const principals = createPrincipalResolver(database.db, config.auth.mode);
  registerErrorHandler(app, {
    unexpectedError: (error, request) => monitor.unexpectedError(error, request),
    databaseError: (error, unreachable) => monitor.databaseError(error, unreachable),
    forbidden: (request, error) => recordAccessDenied(database.db, request, request.principal!, error.message),
  });
  await registerOpenApi(app, config);
  registerRateLimits(app, {
    store: deps.rateLimitStore,
    perMinute: config.rateLimit.perMinute,
    perHour: config.rateLimit.perHour,
    verify,
  });
  registerAuthentication(app, {
    verify,
    resolver: principals,
    observer: {
      invalidToken: (request, account) =>
        monitor.authFailure({ account, enterpriseId: null, ip: request.ip }),
    },
  });
  registerHealthRoute(app, database, config.version, monitor);

  const platform: Platform = { config, database, secrets: deps.secrets, monitor, verify, principals };
  if (config.auth.mode === 'embedded' && deps.secrets !== null) {
    await registerIdentityProvider(app, { ...platform, secrets: deps.secrets });
  }
  await registerModules(app, platform);
  if (deps.extend !== undefined) await deps.extend(app, platform);
  await app.ready();
  return app;
}
