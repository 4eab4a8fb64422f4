import { ConfigError, loadConfig } from './config.js';
import { runKeysCommand } from './keys-command.js';
import { openDatabase } from './platform/db/engine.js';
import { setUpSchema } from './platform/db/schema-setup.js';
import { loadDotEnv } from './platform/env-file.js';
import { packageVersion } from './version.js';

/**
 * `npm run keys [-- rotate | rotate-audit]` on the configured database (DATABASE_URL or DATA_DIR). It writes to
 * this terminal only. With the service running on the same DATA_DIR it joins the service's embedded server.
 */
async function keys(): Promise<number> {
  loadDotEnv();
  const config = loadConfig(process.env, packageVersion());
  const database = await openDatabase(config.database);
  try {
    await setUpSchema(config, database);
    return await runKeysCommand(database.db, config, process.argv.slice(2), (line) => process.stdout.write(`${line}\n`));
  } finally {
    await database.close();
  }
}

keys().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof ConfigError ? '' : 'keys failed: '}${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(error instanceof ConfigError ? 78 : 1);
  },
);
