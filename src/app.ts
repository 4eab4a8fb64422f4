import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  type RouteOptions,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.js';
import { createPasswordHasher, type ScryptCost } from './modules/identity/passwords.js';
import { linkExternalSubject } from './modules/identity/identity.service.js';
import { registerIdentityProvider } from './modules/identity/provider/provider.routes.js';
import { createServiceAccountTokenResolver } from './modules/identity/service-accounts/token-resolver.js';
import { registerScimRoutes } from './modules/identity/scim/protocol/scim.routes.js';
import { registerUnsubscribeRoutes } from './modules/notifications/unsubscribe.routes.js';
import { MODULES, prepareModuleMail } from './modules/index.js';
import { recordAccessDenied } from './platform/audit/access-denied.js';
import { registerApiGate } from './platform/auth/authenticate.js';
import { createPrincipalResolver } from './platform/auth/principal-resolver.js';
import { createTokenVerifier } from './platform/auth/token-verifier.js';
import { reportCommitHookFailures } from './platform/db/transaction.js';
import { trackAllowedMethods } from './platform/http/allowed-methods.js';
import { BODY_LIMIT_BYTES, registerJsonBodyParser } from './platform/http/body-parser.js';
import { clientErrorHandler } from './platform/http/client-errors.js';
import { frameworkErrorHandler, registerErrorHandler, routeNotFound } from './platform/http/error-handler.js';
import { isConsoleRoute, registerConsole } from './platform/http/console.js';
import { registerGracefulClose } from './platform/http/graceful-close.js';
import { registerHealthRoute } from './platform/monitoring/health.routes.js';
import { AccessLogController, loggerOptions, requestLogger } from './platform/http/logging.js';
import { registerNulUrlGuard } from './platform/http/nul-guard.js';
import { registerSecurityHeaders } from './platform/http/security-headers.js';
import { registerOpenApi } from './platform/http/openapi.js';
import { addressKey, createRateLimiter } from './platform/http/rate-limit/rate-limit.hook.js';
import { requestIdFor } from './platform/http/request-id.js';
import { registerStrictInputs } from './platform/http/strict-inputs.js';
import './platform/http/route-config.js';
import { ErrorBody } from './platform/http/schemas.js';
import { schemaController } from './platform/http/validation.js';
import { intervalJob, startJobs } from './platform/jobs.js';
import { attachConditionalRequests } from './platform/http/conditional/conditional-routes.js';
import { attachIdempotency } from './platform/idempotency/idempotent-routes.js';
import { idempotencySweepJob } from './platform/idempotency/idempotency-sweep.js';
import { MAIL_RETRY_EVERY_MS, createMailDelivery } from './platform/mail/delivery.js';
import { createMailer } from './platform/mail/mailer.js';
import { listenForMail } from './platform/mail/outbox.js';
import { registerHttpMetrics } from './platform/metrics/http-metrics.js';
import { registerMetricsRoute } from './platform/metrics/metrics.routes.js';
import { registerPlatformMetrics } from './platform/metrics/platform-sources.js';
import { poolOf } from './platform/db/engine.js';
import { primaryOnly, type ReadRouting } from './platform/db/read-routing.js';
import { API_PREFIX } from './platform/http/api-prefix.js';
import type { App, AppModule, Platform, RuntimeDeps } from './platform/module.js';

export interface AppDeps extends RuntimeDeps {
  /** Tests pass false; the service passes nothing and gets pino JSON at config.logLevel. */
  logger?: FastifyServerOptions['logger'];
  /**
   * Tests only: a cheaper scrypt cost for the provider's password hashes (the suites sign in often). The
   * service never passes it, and no configuration variable reaches it.
   */
  passwordCost?: ScryptCost;
  /** The modules to mount inside the /api/v1 gate (default: all of them). */
  modules?: readonly AppModule[];
  /**
   * Whether this process runs the modules' background work (AppModule.jobs): the service passes true, a
   * worker process would too; the suites pass true only where a job is under test, and the demo builds no
   * app. Default false: building the app and mounting its routes start nothing.
   */
  jobs?: boolean;
  /** Where the built console is (default web/dist/, CONSOLE_DIR): the suites serve a fixture of their own. */
  consoleDir?: string;
  /** Mounted at the root after the modules: the platform suites' public probe routes (a route that throws, ...). */
  extend?: (app: App, platform: Platform) => void | Promise<void>;
  /** Mounted inside the /api/v1 gate after the modules (paths relative to /api/v1): probes behind the gate. */
  extendApi?: (api: App, platform: Platform) => void | Promise<void>;
  /**
   * Sees every route as it is declared, with the instance it is declared on (the gate suite checks that
   * each route is inside the gate or explicitly public). Attached before any route.
   */
  onRoute?: (route: RouteOptions, scope: FastifyInstance) => void;
}

export type { App, Platform } from './platform/module.js';

/**
 * Fastify's own hop count trusts nothing (it fails closed since 5.12, as it cannot check the peer), so a
 * count is given as the function it stands for: the peer and the next hops - 1 addresses of
 * X-Forwarded-For are proxies. Only for a service that cannot be reached except through them
 * (decisions.md); a list of proxy addresses is checked against the peer and is the safer form.
 */
function trustProxyOption(trust: Config['trustProxy']): NonNullable<FastifyServerOptions['trustProxy']> {
  if (typeof trust === 'number') return (_address: string, hop: number) => hop < trust;
  return trust;
}

/** The composition root: platform plugins, then each module's routes inside the /api/v1 gate. Never listens. */
export async function buildApp(deps: AppDeps): Promise<App> {
  const { config, database } = deps;
  const metrics = deps.metrics ?? null;
  // Refused sign-ins are counted where metrics are on; the monitor hears of them either way.
  const monitor: RuntimeDeps['monitor'] =
    metrics === null
      ? deps.monitor
      : {
          ...deps.monitor,
          authFailure(failure) {
            if (failure.signIn === true) metrics.signInFailures.inc();
            deps.monitor.authFailure(failure);
          },
        };
  const logger = deps.logger ?? loggerOptions(config.logLevel);
  const app: App = Fastify({
    logger,
    childLoggerFactory: requestLogger,
    genReqId: requestIdFor,
    requestIdHeader: false,
    bodyLimit: BODY_LIMIT_BYTES,
    schemaController: schemaController(),
    ajv: undefined,
    // Requests already on an open connection while closing are served (their responses say Connection: close).
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    // request.ip (rate limits, alerts, audit ip_address) is the client's, not a trusted proxy's.
    trustProxy: trustProxyOption(config.trustProxy),
    // One access line per request, when the response is complete.
    logController: new AccessLogController(typeof logger === 'object' ? (logger.stream ?? null) : null),
  }).withTypeProvider<TypeBoxTypeProvider>();

  if (deps.onRoute !== undefined) {
    const observe = deps.onRoute;
    app.addHook('onRoute', function (route) {
      observe(route, this);
    });
  }
  // Before any route: every route registered from here on is known to the not-found handlers (405).
  const allowedMethods = trackAllowedMethods(app);
  registerStrictInputs(app);
  app.addSchema(ErrorBody);
  app.decorateRequest('principal', null);
  app.decorateRequest('expectation', null);
  app.decorateRequest('servedState', null);
  app.decorateRequest('requestWork', null);
  // The hooks every request runs take a callback: an async hook costs a promise and a tick per request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  app.addHook('onResponse', (_request, reply, done) => {
    monitor.recordResponse(reply.elapsedTime);
    done();
  });
  if (metrics !== null) registerHttpMetrics(app, metrics);
  await registerSecurityHeaders(app, { publicUrl: config.publicUrl });
  registerJsonBodyParser(app);
  registerNulUrlGuard(app);
  registerGracefulClose(app);
  reportCommitHookFailures(database.db, (error) => monitor.commitHookFailed(error));

  const verify = createTokenVerifier(config, deps.secrets);
  const principals = createPrincipalResolver(database.db, config.auth.mode, linkExternalSubject);
  const limiter = createRateLimiter({
    store: deps.rateLimitStore,
    perMinute: config.rateLimit.perMinute,
    perHour: config.rateLimit.perHour,
    ...(metrics === null ? {} : { onRefused: () => metrics.rateLimitRefusals.inc({ limiter: 'api' }) }),
  });
  registerErrorHandler(app, {
    unexpectedError: (error, request) => monitor.unexpectedError(error, request),
    databaseError: (error, unreachable) => monitor.databaseError(error, unreachable),
    forbidden: (request, error) => recordAccessDenied(database.db, request, request.principal!, error.message),
  });
  await registerOpenApi(app, config);
  const reads = deps.reads ?? primaryOnly();
  registerHealthRoute(app, database, config.version, monitor, reads);
  const consolePage = await registerConsole(app, {
    anonKey: config.auth.mode === 'embedded' ? (deps.secrets?.anonKey ?? null) : null,
    dir: deps.consoleDir,
  });
  // Unknown paths outside the gate are traffic too: counted per address (D8). A page request for one is a
  // console route, drawn by the console itself.
  const notFound = routeNotFound(allowedMethods);
  app.setNotFoundHandler(
    { preHandler: async (request: FastifyRequest, reply: FastifyReply) => limiter(request, reply, addressKey(request)) },
    async (request, reply) => (isConsoleRoute(request) ? consolePage.send(reply) : notFound(request, reply)),
  );

  const mailer = createMailer(config.mail);
  const mail = createMailDelivery({
    db: database.db,
    mailer,
    prepare: prepareModuleMail(database.db, config),
    log: app.log,
    domain: new URL(config.publicUrl).hostname,
  });
  // Mail another module queued in its own statement (a notification's) is sent as soon as it commits.
  const stopListening = listenForMail(database.db, () => mail.wake());
  const platform: Platform = { config, database, secrets: deps.secrets, monitor, verify, principals, log: app.log, mail, reads };
  const modules = deps.modules ?? MODULES;
  if (metrics !== null) {
    const stopObserving = registerPlatformMetrics(metrics, database, poolOf(database.db), reads);
    app.addHook('onClose', async () => stopObserving());
    for (const module of modules) for (const source of module.metrics?.() ?? []) metrics.addSource(source, database.db);
    if (config.metrics.token !== null) registerMetricsRoute(app, metrics, config.metrics.token);
  }
  if (config.auth.mode === 'embedded' && deps.secrets !== null) {
    await registerIdentityProvider(app, { ...platform, secrets: deps.secrets }, {
      limiter,
      // Password sign-ins per account, from any number of addresses.
      signInLimiter: createRateLimiter({
        store: deps.rateLimitStore,
        perMinute: config.rateLimit.signInPerMinute,
        perHour: config.rateLimit.signInPerHour,
        ...(metrics === null ? {} : { onRefused: () => metrics.rateLimitRefusals.inc({ limiter: 'sign_in' }) }),
      }),
      // Recovery mails per e-mail, from any number of addresses (the per-address budget applies as well).
      recoveryLimiter: createRateLimiter({
        store: deps.rateLimitStore,
        perMinute: config.rateLimit.recoveryPerHour,
        perHour: config.rateLimit.recoveryPerHour,
      }),
      passwords: createPasswordHasher(deps.passwordCost),
    });
  }
  // SCIM 2.0 under /scim/v2: the enterprise's directory, with its own tokens, limits and error shape.
  await registerScimRoutes(app, {
    db: database.db,
    principals,
    mail,
    publicUrl: config.publicUrl,
    addressLimiter: limiter,
    limiter: createRateLimiter({ store: deps.rateLimitStore, perMinute: config.scim.perMinute, perHour: config.scim.perHour }),
    invalidToken: (request) => monitor.authFailure({ account: null, enterpriseId: null, ip: request.ip }),
    unexpectedError: (error, request) => monitor.unexpectedError(error, request),
  });
  // The one-click unsubscribe of notification mail (RFC 8058): its signed link is its authority, not a bearer token.
  await registerUnsubscribeRoutes(app, { db: database.db, limiter, publicUrl: config.publicUrl });
  await app.register(
    async (api) => {
      registerApiGate(api, {
        verify,
        resolver: principals,
        limiter,
        // Integration tokens (service accounts): the identity module's, handed in (the platform imports no module).
        apiTokens: createServiceAccountTokenResolver(database.db),
        observer: {
          invalidToken: (request, account) => monitor.authFailure({ account, enterpriseId: null, ip: request.ip }),
        },
      });
      api.setNotFoundHandler(notFound);
      // Conditional requests and idempotency, for the routes that declare them in their config.
      api.addHook('onRoute', (route) => {
        attachConditionalRequests(route, config.requireIfMatch);
        attachIdempotency(route, database.db);
        // Last: after an Idempotency-Key request's commit, which happens in its own onSend.
        if (config.replica !== null) attachWriteMark(route, reads);
      });
      for (const module of modules) await module.routes?.(api, module.services(database.db, platform));
      if (deps.extendApi !== undefined) await deps.extendApi(api, platform);
    },
    { prefix: API_PREFIX },
  );
  if (deps.extend !== undefined) await deps.extend(app, platform);
  let stopJobs: (() => Promise<void>) | null = null;
  app.addHook('onClose', async () => {
    await stopJobs?.();
    stopListening();
    // A delivery woken by a request may still be under way: it finishes before the database closes.
    await mail.settle();
    mailer.close();
  });
  await app.ready();
  // The mail outbox's retry loop and the idempotency sweep are the platform's own jobs.
  const mailJob = intervalJob('mail.outbox', MAIL_RETRY_EVERY_MS, app.log, async () => void (await mail.deliverDue()));
  if (deps.jobs === true) {
    stopJobs = startJobs([mailJob, idempotencySweepJob(platform), ...modules.flatMap((module) => module.jobs?.(platform) ?? [])]);
  }
  return app;
}

const CHANGES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Read-your-writes (db/read-routing.ts): a caller's successful change notes the primary's WAL position
 * before its answer leaves (after the change has committed, the last of the route's onSend hooks), so
 * that the caller's next read, on any instance, waits for the replica to have it or goes to the primary.
 */
function attachWriteMark(route: RouteOptions, reads: ReadRouting): void {
  const methods = [route.method].flat();
  if (!methods.some((method) => CHANGES.has(method))) return;
  const mark = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const principal = request.principal;
    if (principal !== null && reply.statusCode < 400) {
      try {
        await reads.noteWrite(principal.userId);
      } catch (error) {
        request.log.warn({ err: error }, 'could not note the change for read-your-writes');
      }
    }
    return payload;
  };
  route.onSend = [...[route.onSend ?? []].flat(), mark] as RouteOptions['onSend'];
}
