import type { Server } from 'node:http';
import { pino } from 'pino';
import { buildApp } from './app.js';
import { terminalAnnouncer } from './platform/auth/key-notice.js';
import { prepareRuntime } from './runtime.js';
import { logDestination } from './platform/http/logging.js';
import { createMetrics } from './platform/metrics/metrics.js';
import { listenMetrics } from './platform/metrics/metrics.routes.js';
import { localUrl, printStartupBanner } from './platform/startup-banner.js';
import { recordRunningService } from './platform/running-services.js';
import { checkTokenIssuer, explainIssuerChange, untrustedCheckpointKeys } from './platform/startup-checks.js';
import { onShutdownSignals } from './shutdown.js';
import { configuredOrExit } from './startup-gate.js';

/** loadConfig → open and migrate the database → buildApp → listen; graceful shutdown on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  const config = await configuredOrExit();
  const log = pino({ level: config.logLevel }, logDestination());
  // Generated secrets are shown once, on a terminal only, never in the JSON log stream.
  const announce = terminalAnnouncer();
  const runtime = await prepareRuntime(config, log, announce);
  if (config.auth.mode === 'embedded') {
    const issuer = await checkTokenIssuer(runtime.database.db, config);
    if (issuer.changed) announce(explainIssuerChange(issuer));
  }
  const foreign = await untrustedCheckpointKeys(runtime.database.db, config).catch(() => []);
  if (foreign.length > 0) {
    log.warn(
      { key_ids: foreign },
      'audit checkpoints on this database are signed by keys this instance does not trust: give every instance the same AUDIT_SIGNING_KEY (docs/scaling.md)',
    );
  }
  const metrics = config.metrics.enabled ? createMetrics() : null;
  const app = await buildApp({ ...runtime, metrics, jobs: true });
  let metricsServer: Server | null = null;
  const closeMetrics = () =>
    new Promise<void>((resolve) => (metricsServer === null ? resolve() : metricsServer.close(() => resolve())));

  let forget = () => undefined as void;
  onShutdownSignals(app.log, async () => {
    forget();
    await closeMetrics();
    await app.close();
    await runtime.monitor.close();
    await runtime.rateLimitStore.close();
    await runtime.reads?.close();
    await runtime.database.close();
  });

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
    await runtime.reads?.close().catch(() => undefined);
    await runtime.database.close().catch(() => undefined);
    throw error;
  }
  if (config.database.kind === 'embedded-dir') {
    // The demo, started beside the service, prints the address and the key this service accepts.
    forget = recordRunningService(config.database.dataDir, { base_url: localUrl(app.server.address(), config), anon_key: runtime.secrets?.anonKey ?? null });
    process.once('exit', forget);
  }
  await printStartupBanner({ config, db: runtime.database.db, anonKey: runtime.secrets?.anonKey ?? null, address: app.server.address() });
}

main().catch((error: unknown) => {
  process.stderr.write(`Start-up failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
