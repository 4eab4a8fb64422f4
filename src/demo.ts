import { pino } from 'pino';
import { ConfigError, loadConfig } from './config.js';
import { formatDemoReport } from './demo/demo-report.js';
import { DemoRefusal, runDemo } from './demo/run-demo.js';
import { terminalAnnouncer } from './platform/auth/key-notice.js';
import { prepareRuntime } from './runtime.js';
import { findRunningService } from './platform/running-services.js';
import { loadDotEnv } from './platform/env-file.js';
import { CONFIG_ERROR_EXIT_CODE, StartupCheckError, runStartupChecks } from './platform/startup-checks.js';
import { packageVersion } from './version.js';

/**
 * `npm run demo`: opens the configured database (as the service would: DATABASE_URL or DATA_DIR),
 * migrates it, and creates the demo enterprise. With the service running on the same DATA_DIR it joins
 * that service's embedded server, so the service sees the demo at once.
 */
async function demo(): Promise<number> {
  loadDotEnv();
  const config = loadConfig(process.env, packageVersion());
  await runStartupChecks(config);
  const log = pino({ level: config.logLevel === 'info' ? 'warn' : config.logLevel });
  const say = (message: string) => process.stdout.write(`${message}\n`);
  const runtime = await prepareRuntime(config, log, terminalAnnouncer());
  try {
    const result = await runDemo(runtime.database, config, { ...(runtime.secrets !== null ? { secrets: runtime.secrets } : {}), log: say });
    say('');
    // Beside a running service, its address and the key it accepts (this shell's may differ from that one's).
    const service = config.database.kind === 'embedded-dir' ? findRunningService(config.database.dataDir) : null;
    const accepted = service !== null ? { ...result, anonKey: service.anon_key ?? result.anonKey } : result;
    process.stdout.write(
      formatDemoReport(accepted, { baseUrl: service?.base_url ?? config.publicUrl, inMemory: config.database.kind === 'embedded-memory', serviceRunning: service !== null }),
    );
    return 0;
  } finally {
    await runtime.monitor.close();
    await runtime.rateLimitStore.close();
    await runtime.database.close();
  }
}

demo().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ConfigError || error instanceof StartupCheckError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(CONFIG_ERROR_EXIT_CODE);
    }
    if (error instanceof DemoRefusal) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    process.stderr.write(`Demo failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
