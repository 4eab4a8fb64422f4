import type { ReadRouting } from './db/read-routing.js';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { Config } from '../config.js';
import type { PrincipalResolver } from './auth/principal-resolver.js';
import type { AuthSecrets } from './auth/secrets.js';
import type { TokenVerifier } from './auth/token-verifier.js';
import type { Database } from './db/engine.js';
import type { Executor } from './db/schema.js';
import type { RateLimitStore } from './http/rate-limit/rate-limit-store.js';
import type { Job } from './jobs.js';
import type { MailDelivery, MailTemplates } from './mail/delivery.js';
import type { MetricSource, Metrics } from './metrics/metrics.js';
import type { Monitor } from './monitoring/monitor.js';

/** The Fastify instance every route is declared on, typed by its TypeBox schemas. */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** What the platform hands every module: explicit, narrow, nothing read from globals. */
export interface Platform {
  config: Config;
  database: Database;
  secrets: AuthSecrets | null;
  monitor: Monitor;
  verify: TokenVerifier;
  principals: PrincipalResolver;
  /** The app's logger, for work done off a request (jobs, a stream that fails half-way). */
  log: FastifyBaseLogger;
  /** The mail outbox's sender: services queue mail in their transaction and wake it on commit. */
  mail: MailDelivery;
  /** Where the reads that may lag go (db/read-routing.ts): the replica, when one is configured and fit. */
  reads: ReadRouting;
}

/** What services may take from the platform besides the executor they are bound to. */
export type ServicePlatform = Pick<Platform, 'config' | 'principals' | 'log' | 'mail' | 'reads'>;

/** What the service prepares before it can serve (runtime.ts): the app and the demo are built on it. */
export interface RuntimeDeps {
  config: Config;
  database: Database;
  /** The embedded provider's keys; null in external mode. */
  secrets: AuthSecrets | null;
  monitor: Monitor;
  rateLimitStore: RateLimitStore;
  /** The Prometheus metrics (METRICS_PORT or METRICS_TOKEN set); null: none collected, nothing on the request path. */
  metrics?: Metrics | null;
  /** The read replica's routing (DATABASE_REPLICA_URL); absent: every read on the primary. */
  reads?: ReadRouting;
}

/**
 * A domain module: its services, its routes and its background work, as data. `services` binds the
 * module's services to an executor (the database, or a caller's transaction to join): the app binds them
 * to the database for the routes, other modules and the demo call them directly. `routes` is called inside
 * the /api/v1 gate (authentication and rate limits already attached), with paths relative to /api/v1, and
 * is given the services: a module cannot declare a route that escapes the gate by accident, and mounting
 * routes never starts anything. A module without gated routes has none (identity, whose public /auth/v1
 * routes app.ts mounts from the module in embedded mode). `jobs` lists the background work, which the app
 * starts when asked.
 */
export interface AppModule<Name extends string = string, Services = unknown> {
  /** The module's name (its folder), for logs, for the tests that walk every module, and as its key in ModuleServices. */
  name: Name;
  services(executor: Executor, platform: ServicePlatform): Services;
  routes?(api: App, services: Services): void | Promise<void>;
  jobs?(platform: Platform): readonly Job[];
  /**
   * The mails the module queues in the outbox, by template name: each renders a row when it is sent (the
   * app composes them into the outbox's one `prepare`, delivery.ts dispatchByTemplate).
   */
  mail?(db: Executor, config: Config): MailTemplates;
  /**
   * Gauges read from the module's own tables when Prometheus scrapes (only where metrics are on): the
   * audit trail's checkpoint age; a webhooks module's outbox backlog belongs here too.
   */
  metrics?(): readonly MetricSource[];
}

/** Declares a module, keeping its name and its services' type (modules/index.ts builds ModuleServices from them). */
export function defineModule<const Name extends string, Services>(module: AppModule<Name, Services>): AppModule<Name, Services> {
  return module;
}
