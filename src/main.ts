import { pino } from 'pino';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { terminalAnnouncer } from './platform/auth/key-notice.js';
import { prepareRuntime } from './platform/runtime.js';
import { loadDotEnv } from './platform/env-file.js';
import { logDestination } from './platform/http/logging.js';
import { printStartupBanner } from './platform/startup-banner.js';
import { CONFIG_ERROR_EXIT_CODE, StartupCheckError, checkTokenIssuer, explainIssuerChange, runStartupChecks } from './platform/startup-checks.js';
import { packageVersion } from './version.js';
import { createMetrics } from './platform/metrics/metrics.js';
import { listenMetrics } from './platform/metrics/metrics.routes.js';
import type { Server } from 'node:http';

/** loadConfig → open and migrate the database → buildApp → listen; graceful shutdown on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  let config;
  try {
    loadDotEnv();
    config = loadConfig(process.env, packageVersion());
    await runStartupChecks(config);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof StartupCheckError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(CONFIG_ERROR_EXIT_CODE);
    }
    throw error;
  }
  const log = pino({ level: config.logLevel }, logDestination());
  // Generated secrets are shown once, on a terminal only, never in the JSON log stream.
  const announce = terminalAnnouncer();
  const runtime = await prepareRuntime(config, log, announce);
  if (config.auth.mode === 'embedded') {
    const issuer = await checkTokenIssuer(runtime.database.db, config);
    if (issuer.changed) announce(explainIssuerChange(issuer));
  }
  const metrics = config.metrics.enabled ? createMetrics() : null;
  const app = await buildApp({ ...runtime, metrics, jobs: true });
  let metricsServer: Server | null = null;
  const closeMetrics = () =>
    new Promise<void>((resolve) => (metricsServer === null ? resolve() : metricsServer.close(() => resolve())));

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    try {
      await closeMetrics();
      await app.close();
      await runtime.monitor.close();
      await runtime.rateLimitStore.close();
      await runtime.database.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  try {
    await app.listen({ port: config.port, host: config.host });
    if (metrics !== null && config.metrics.port !== null) {
      metricsServer = await listenMetrics(metrics, config.metrics.host, config.metrics.port);
      app.log.info({ address: metricsServer.address() }, 'metrics listening');
    }
  } catch (error) {
    // Port taken, say: leave the database as found (the embedded server stops if no one else uses it).
    await closeMetrics();
    await app.close().catch(() => undefined);
    await runtime.monitor.close().catch(() => undefined);
    await runtime.rateLimitStore.close().catch(() => undefined);
    await runtime.database.close().catch(() => undefined);
    throw error;
  }
  await printStartupBanner({ config, db: runtime.database.db, anonKey: runtime.secrets?.anonKey ?? null, address: app.server.address() });
}

main().catch((error: unknown) => {
  process.stderr.write(`Start-up failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
