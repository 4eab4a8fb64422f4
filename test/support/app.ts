import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import { buildApp, type App, type AppDeps } from '../../src/app.js';
import { loadConfig, type Config, type LogLevel } from '../../src/config.js';
import { loggerOptions } from '../../src/platform/http/logging.js';
import type { Database } from '../../src/platform/db/engine.js';
import { loadAuthSecrets, type AuthSecrets } from '../../src/platform/auth/secrets.js';
import { createMonitor, type AlertMonitor } from '../../src/platform/monitoring/alert-monitor.js';
import { createMemoryRateLimitStore } from '../../src/platform/http/rate-limit/memory-store.js';
import type { RateLimitStore } from '../../src/platform/http/rate-limit/rate-limit-store.js';
import { asRuntimeRole, freshDatabase } from './database.js';
import type { Metrics } from '../../src/platform/metrics/metrics.js';
import type { ScryptCost } from '../../src/modules/identity/passwords.js';

/** A stand-in for web/dist: the suites test how the console is served, not what the build made. */
export const CONSOLE_FIXTURE = fileURLToPath(new URL('./console-fixture/', import.meta.url));

export const TEST_PUBLIC_URL = 'http://service.test';

/**
 * The suites sign in often, and the service's scrypt cost (N=2^17) takes about a third of a second a
 * hash: test apps hash and verify at this cheaper cost (AppDeps.passwordCost, which only tests pass). The
 * upgrade suite builds an app at the service's own cost.
 */
export const TEST_PASSWORD_COST: ScryptCost = { N: 2 ** 10, r: 8, p: 1 };

/** The suites' configuration: the test public URL, generous rate limits, no log; `env` adds to it. */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    PUBLIC_URL: TEST_PUBLIC_URL,
    RATE_LIMIT_PER_MINUTE: '1000000',
    RATE_LIMIT_PER_HOUR: '10000000',
    RATE_LIMIT_SIGN_IN_PER_MINUTE: '1000000',
    RATE_LIMIT_SIGN_IN_PER_HOUR: '10000000',
    LOG_LEVEL: 'silent',
    ...env,
  });
}

export interface TestContext {
  app: App;
  /** The app's database: the run's runtime role, unless the file passed a database of its own. */
  database: Database;
  /**
   * The same database as its owner, for what suites seed and inspect, and for what only the owner may do
   * (disabling the audit trail's trigger to tamper with it).
   */
  db: Database['db'];
  config: Config;
  secrets: AuthSecrets;
  monitor: AlertMonitor;
  close(): Promise<void>;
}

export interface TestContextOptions {
  env?: Record<string, string>;
  database?: Database;
  rateLimitStore?: RateLimitStore;
  extend?: AppDeps['extend'];
  extendApi?: AppDeps['extendApi'];
  /** Default TEST_PASSWORD_COST; SCRYPT_COST for the service's own. */
  passwordCost?: ScryptCost;
  onRoute?: AppDeps['onRoute'];
  /** Prometheus metrics to collect (AppDeps.metrics); default none. */
  metrics?: Metrics;
  /** The built console to serve at / (default: the suites' fixture, test/support/console-fixture/). */
  consoleDir?: string;
  /** Run the modules' background work (AppDeps.jobs); default false, as mounting routes starts nothing. */
  jobs?: boolean;
  /** The read replica's routing (AppDeps.reads); default every read on the primary. */
  reads?: AppDeps['reads'];
}

/**
 * The app as the service builds it, on a fresh database of its own reached as the service's role would
 * reach it (no UPDATE or DELETE on the audit trail, no ownership), with generous rate limits (the
 * rate-limit suite sets its own). Closed automatically after the file's tests.
 */
export async function createTestContext(options: TestContextOptions = {}): Promise<TestContext> {
  const config = testConfig(options.env);
  const owner = options.database ?? (await freshDatabase());
  const database = options.database ?? (await asRuntimeRole(owner));
  const secrets = await loadAuthSecrets(database.db, config, () => undefined);
  const silent = { error: () => undefined, warn: () => undefined, info: () => undefined };
  const monitor = createMonitor(database.db, silent, { intervalMs: 3_600_000 });
  const rateLimitStore = options.rateLimitStore ?? createMemoryRateLimitStore();
  // TEST_LOG_LEVEL=error shows the causes of 500s while debugging a suite.
  const logger = process.env['TEST_LOG_LEVEL'] ? loggerOptions(process.env['TEST_LOG_LEVEL'] as LogLevel) : false;
  const passwordCost = options.passwordCost ?? TEST_PASSWORD_COST;
  const app = await buildApp({
    config,
    database,
    secrets,
    monitor,
    rateLimitStore,
    logger,
    extend: options.extend,
    extendApi: options.extendApi,
    passwordCost,
    onRoute: options.onRoute,
    jobs: options.jobs ?? false,
    metrics: options.metrics ?? null,
    consoleDir: options.consoleDir ?? CONSOLE_FIXTURE,
    ...(options.reads === undefined ? {} : { reads: options.reads }),
  });
  let closed = false;
  const context: TestContext = {
    app,
    database,
    db: owner.db,
    config,
    secrets,
    monitor,
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
      await monitor.close();
      await rateLimitStore.close();
      await database.close();
    },
  };
  afterAll(() => context.close());
  return context;
}
