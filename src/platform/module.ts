import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { Config } from '../config.js';
import type { PrincipalResolver } from './auth/principal-resolver.js';
import type { AuthSecrets } from './auth/secrets.js';
import type { TokenVerifier } from './auth/token-verifier.js';
import type { Database } from './db/engine.js';
import type { RateLimitStore } from './http/rate-limit/rate-limit-store.js';
import type { Monitor } from './monitoring/monitor.js';

/** Where the gated API lives; module routes are declared relative to it. */
export const API_PREFIX = '/api/v1';

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
}

/** What the service prepares before it can serve (runtime.ts): the app and the demo are built on it. */
export interface RuntimeDeps {
  config: Config;
  database: Database;
  /** The embedded provider's keys; null in external mode. */
  secrets: AuthSecrets | null;
  monitor: Monitor;
  rateLimitStore: RateLimitStore;
}

/**
 * A domain module as the app mounts it. `routes` is called inside the /api/v1 gate (authentication and
 * rate limits already attached), with paths relative to /api/v1: a module cannot declare a route that
 * escapes the gate by accident.
 */
export interface AppModule {
  /** The module's name (its folder), for logs and the tests that walk every module. */
  name: string;
  routes(api: App, platform: Platform): void | Promise<void>;
}
