import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './platform/db/engine.js';
import { setUpSchema } from './platform/db/schema-setup.js';

/** `npm run migrate`: applies pending migrations and exits (the service also migrates at start-up). */
async function migrate(): Promise<void> {
  const config = loadConfig(process.env);
  const database = await openDatabase(config.database);
  try {
    const { applied } = await setUpSchema(config, database);
    process.stdout.write(applied.length === 0 ? 'Nothing to apply: the database is up to date.\n' : `Applied: ${applied.join(', ')}\n`);
  } finally {
    await database.close();
  }
}

migrate().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConfigError ? error.message : `Migration failed: ${String(error)}`}\n`);
  process.exit(1);
});
