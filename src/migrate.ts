import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './platform/db/engine.js';
import { setUpSchema } from './platform/db/schema-setup.js';
import { loadDotEnv } from './platform/env-file.js';
import { CONFIG_ERROR_EXIT_CODE, StartupCheckError, runStartupChecks } from './platform/startup-checks.js';

/** `npm run migrate`: applies pending migrations and exits (the service also migrates at start-up). */
async function migrate(): Promise<void> {
  loadDotEnv();
  const config = loadConfig(process.env);
  await runStartupChecks({ ...config, redisUrl: null });
  const database = await openDatabase(config.database);
  try {
    const { applied } = await setUpSchema(config, database);
    process.stdout.write(applied.length === 0 ? 'Nothing to apply: the database is up to date.\n' : `Applied: ${applied.join(', ')}\n`);
  } finally {
    await database.close();
  }
}

migrate().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof StartupCheckError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(CONFIG_ERROR_EXIT_CODE);
  }
  process.stderr.write(`Migration failed: ${String(error)}\n`);
  process.exit(1);
});
