import { accessSync, constants, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.js';
import { checkKeyFiles, checkpointKeySource, hasCheckpointKey } from './audit/checkpoint-key.js';
import type { DB } from './db/schema.js';
import { recordPlatformValue } from './auth/secrets.js';
import { PlacementError } from './db/embedded/binaries.js';
import { prepareEmbeddedServer } from './db/embedded/reachability.js';

/** Exit code of a configuration error (sysexits EX_CONFIG): the deployment, not the code, must change. */
export const CONFIG_ERROR_EXIT_CODE = 78;

/**
 * A start-up check failed because of the environment: the message names the variable, the cause and what
 * to do, and the process exits with CONFIG_ERROR_EXIT_CODE before doing any work.
 */
export class StartupCheckError extends Error {
  constructor(
    readonly variable: string,
    reason: string,
  ) {
    super(`${variable}: ${reason}`);
    this.name = 'StartupCheckError';
  }
}

/**
 * What must hold before the service opens its database or serves: the database (server) answers and
 * exists, the embedded engine's directory is writable, Redis answers. Each check names its variable.
 */
export async function runStartupChecks(config: Config, timeoutMs = 5_000, say: (message: string) => void = (message) => process.stdout.write(`${message}\n`)): Promise<void> {
  if (config.database.kind === 'postgres') await checkPostgres(config.database.url, timeoutMs);
  if (config.database.kind === 'embedded-dir') {
    checkDataDir(config.database.dataDir);
    await checkEmbeddedServer(config.database.dataDir, say);
  }
  checkAuditKeys(config);
  if (config.redisUrl !== null) await checkRedis(config.redisUrl, timeoutMs);
}

function checkAuditKeys(config: Config): void {
  try {
    checkKeyFiles(config);
  } catch (error) {
    throw new StartupCheckError('DATA_DIR', `${(error as Error).message}. Restore the file from a backup, or move it away to start without it.`);
  }
}

const MIN_SERVER_VERSION = 150000;

async function checkPostgres(url: string, timeoutMs: number): Promise<void> {
  const parsed = new URL(url);
  const where = `${parsed.hostname || 'localhost'}:${parsed.port || '5432'}`;
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || parsed.username || 'postgres';
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  // A server dropping the connection during the check must not crash the process.
  client.on('error', () => undefined);
  try {
    await client.connect();
    const { rows } = await client.query<{ server_version_num: string }>('show server_version_num');
    const version = Number(rows[0]?.server_version_num ?? 0);
    if (version < MIN_SERVER_VERSION) {
      throw new StartupCheckError('DATABASE_URL', `the server at ${where} runs PostgreSQL ${Math.floor(version / 10000)}; the service needs 15 or newer.`);
    }
  } catch (error) {
    if (error instanceof StartupCheckError) throw error;
    throw new StartupCheckError('DATABASE_URL', postgresReason(error, where, database));
  } finally {
    await client.end().catch(() => undefined);
  }
}

function postgresReason(error: unknown, where: string, database: string): string {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  switch (code) {
    case 'ECONNREFUSED':
      return `nothing accepts connections at ${where} (connection refused). Start PostgreSQL there, or correct DATABASE_URL (unset it to use the embedded database).`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `the host of ${where} is unknown. Correct the host name in DATABASE_URL.`;
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `no answer from ${where} (${code}). Check the address and the network between here and the server.`;
    case '3D000':
      return `the server at ${where} has no database "${database}". Create it (createdb ${database}) or name an existing one in DATABASE_URL.`;
    case '28P01':
    case '28000':
      return `the server at ${where} refused the credentials (${message}). Correct the user or password in DATABASE_URL.`;
    default:
      if (/timeout/i.test(message)) return `no answer from ${where} within the time allowed. Check the address and that the server is up.`;
      return `cannot use the database at ${where}: ${message}`;
  }
}

function checkDataDir(dataDir: string): void {
  try {
    mkdirSync(dataDir, { recursive: true });
    accessSync(dataDir, constants.W_OK);
  } catch (error) {
    const why = (error as { code?: string }).code ?? (error instanceof Error ? error.message : String(error));
    throw new StartupCheckError('DATA_DIR', `the embedded database's directory ${resolve(dataDir)} cannot be created or written (${why}). Choose a writable directory.`);
  }
}

async function checkEmbeddedServer(dataDir: string, say: (message: string) => void): Promise<void> {
  try {
    await prepareEmbeddedServer(dataDir, say);
  } catch (error) {
    if (error instanceof PlacementError) throw new StartupCheckError('DATA_DIR', error.message);
    throw error;
  }
}

async function checkRedis(url: string, timeoutMs: number): Promise<void> {
  const parsed = new URL(url);
  const where = `${parsed.hostname || 'localhost'}:${parsed.port || '6379'}`;
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  // ioredis reports the socket's error (ECONNREFUSED, ...) as an event and rejects with "Connection is closed".
  let socketError: unknown = null;
  redis.on('error', (error) => {
    socketError ??= error;
  });
  try {
    await redis.connect();
    await redis.ping();
  } catch (rejection) {
    const error = socketError ?? rejection;
    const code = (error as { code?: string }).code;
    const message = error instanceof Error ? error.message : String(error);
    const reason =
      code === 'ECONNREFUSED'
        ? `nothing accepts connections at ${where} (connection refused). Start Redis there, or unset REDIS_URL to keep rate-limit counters in memory (one instance only).`
        : /NOAUTH|WRONGPASS|invalid password/i.test(message)
          ? `Redis at ${where} refused the credentials (${message}). Correct the password in REDIS_URL.`
          : `cannot use Redis at ${where}: ${message}`;
    throw new StartupCheckError('REDIS_URL', reason);
  } finally {
    redis.disconnect();
  }
}

const ISSUER_RECORD = 'auth.token_issuer';

export interface IssuerCheck {
  /** null at first start. */
  recorded: string | null;
  current: string;
  changed: boolean;
}

/**
 * Instances sharing a database must agree on the token issuer: each signs tokens with `iss` = its own
 * AUTH_ISSUER (by default PUBLIC_URL + /auth/v1) and accepts only that value, so two instances that
 * disagree reject each other's tokens. The issuer is recorded in the database; a start with another one
 * is explained (and becomes the recorded one, so that a service that has really moved is told once).
 */
export async function checkTokenIssuer(db: Kysely<DB>, config: Config): Promise<IssuerCheck> {
  const current = config.auth.issuer;
  const row = await db.selectFrom('platform_secrets').select('value').where('name', '=', ISSUER_RECORD).executeTakeFirst();
  const recorded = row === undefined ? null : String(row.value);
  if (recorded === current) return { recorded, current, changed: false };
  await recordPlatformValue(db, ISSUER_RECORD, current);
  return { recorded, current, changed: recorded !== null };
}

export function explainIssuerChange(check: IssuerCheck): string {
  return [
    `The token issuer differs from the one recorded in this database.`,
    `  recorded (another instance, or an earlier start): ${check.recorded}`,
    `  this instance (AUTH_ISSUER, by default PUBLIC_URL + /auth/v1): ${check.current}`,
    `Instances that share a database must use the same issuer, or each refuses the other's tokens (401).`,
    `Set the same PUBLIC_URL (or AUTH_ISSUER) on every instance. If the service has simply moved to a new address,`,
    `nothing needs doing: tokens issued before the move stop working and users sign in again.`,
  ].join('\n');
}

/**
 * Instances on one database must sign audit checkpoints with one key (AUDIT_SIGNING_KEY, docs/scaling.md):
 * the key is never in the database (D7.5), so instances with DATA_DIRs of their own would each sign with
 * their own file's key, and each one's verification would distrust the others' checkpoints. The key ids
 * of the last day's checkpoints this instance does not trust; empty when all agree (or it has no key yet).
 */
export async function untrustedCheckpointKeys(db: Kysely<DB>, config: Config): Promise<string[]> {
  if (!hasCheckpointKey(config)) return [];
  const trusted = checkpointKeySource(config)().trusted;
  const rows = await db
    .selectFrom('audit_checkpoints')
    .select('key_id')
    .distinct()
    .where('signed_at', '>', new Date(Date.now() - 24 * 3_600_000))
    .execute();
  return rows.map((row) => row.key_id).filter((keyId) => !trusted.has(keyId));
}
