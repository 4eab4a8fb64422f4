import { ConfigError, loadConfig, type Config } from './config.js';
import { loadDotEnv } from './platform/env-file.js';
import { CONFIG_ERROR_EXIT_CODE, StartupCheckError, runStartupChecks } from './platform/startup-checks.js';
import { packageVersion } from './version.js';

/**
 * The configuration, once it has passed the start-up checks; otherwise the refusal on standard error and
 * exit code 78 (the guide's table of start-up messages). The service runs it first, and so does
 * `npm start` before building (src/preflight.ts), so that a refusal never waits for a build.
 */
export async function configuredOrExit(): Promise<Config> {
  try {
    loadDotEnv();
    const config = loadConfig(process.env, packageVersion());
    await runStartupChecks(config);
    return config;
  } catch (error) {
    if (error instanceof ConfigError || error instanceof StartupCheckError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(CONFIG_ERROR_EXIT_CODE);
    }
    throw error;
  }
}
