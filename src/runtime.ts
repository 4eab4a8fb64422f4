import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import { openDatabase } from './platform/db/engine.js';
import type { RuntimeDeps } from './platform/module.js';
import { loadAuthSecrets, type Announce } from './platform/auth/secrets.js';
import { OWNER_WARNING, setUpSchema } from './platform/db/schema-setup.js';
import { ensureBootstrapSuperAdmin } from './modules/identity/bootstrap.js';
import { createMonitor } from './platform/monitoring/alert-monitor.js';
import { createRateLimitStore } from './platform/http/rate-limit/create-store.js';
import { memoryWriteMarks, primaryOnly, redisWriteMarks, replicaRouting, type ReadRouting } from './platform/db/read-routing.js';

/**
 * Everything the app needs before it can serve: the database (migrated), the provider's secrets, the
 * bootstrap super admin, the monitor and the rate-limit store. Shared by the service and the demo.
 */
export async function prepareRuntime(
  config: Config,
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>,
  announce: Announce,
): Promise<RuntimeDeps> {
  const database = await openDatabase(config.database, { log: (message) => log.info(message), pooler: config.pooler });
  try {
    const { applied, ownerRuns } = await setUpSchema(config, database);
    if (applied.length > 0) log.info({ applied }, 'migrations applied');
    if (ownerRuns) log.warn(OWNER_WARNING);
    const secrets = config.auth.mode === 'embedded' ? await loadAuthSecrets(database.db, config, announce) : null;
    if (config.bootstrapSuperAdmin !== null) {
      const created = await ensureBootstrapSuperAdmin(database.db, config.bootstrapSuperAdmin);
      if (created) announce(`Created the bootstrap super admin ${config.bootstrapSuperAdmin.email}.`);
    }
    const monitor = createMonitor(database.db, log);
    const rateLimitStore = await createRateLimitStore(config.redisUrl);
    const reads = await readRouting(config, database.db, log);
    return { config, database, secrets, monitor, rateLimitStore, reads };
  } catch (error) {
    await database.close();
    throw error;
  }
}

/** DATABASE_REPLICA_URL set: reads routed to it (callers' last changes kept in Redis when REDIS_URL is set). */
async function readRouting(config: Config, primary: RuntimeDeps['database']['db'], log: Pick<FastifyBaseLogger, 'warn'>): Promise<ReadRouting> {
  if (config.replica === null) return primaryOnly();
  const marks = config.redisUrl === null ? memoryWriteMarks() : await redisWriteMarks(config.redisUrl);
  return replicaRouting({ primary, replicaUrl: config.replica.url, maxLagMs: config.replica.maxLagMs, marks, log });
}
