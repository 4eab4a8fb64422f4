import { existsSync } from 'node:fs';

/**
 * Reads `.env` from the working directory into process.env when the file exists (see .env.example).
 * Variables already set in the environment win. Only the entry points call this; loadConfig stays pure.
 */
export function loadDotEnv(path = '.env'): boolean {
  if (!existsSync(path)) return false;
  process.loadEnvFile(path);
  return true;
}
