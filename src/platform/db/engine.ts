import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { DatabaseTarget } from '../../config.js';
import { guardPool } from './connection-guard.js';
import { joinEmbeddedServer, type EmbeddedServer } from './embedded/embedded-server.js';
import type { DB } from './schema.js';

/**
 * One code path for every engine: a pg pool and Kysely's PostgresDialect, on a PostgreSQL server the
 * service runs itself under DATA_DIR (reached through its Unix socket) or on an external one. Dates come
 * back as 'YYYY-MM-DD' text and timestamps as Date (rendered with a Z by the serializer).
 */
export interface Database {
  db: Kysely<DB>;
  engine: 'embedded' | 'postgres';
  /** The connection URL of this database (embedded: through the server's socket, as EMBEDDED_RUNTIME_ROLE). */
  url: string;
  /**
   * The URL of the role that owns the schema and runs the migrations, when the engine knows it (embedded:
   * the server's superuser); null when the caller must name one (MIGRATION_DATABASE_URL) or `url` owns it.
   */
  ownerUrl: string | null;
  /** Embedded: the server this process uses, which hands out URLs for any role and database. */
  server: EmbeddedServer | null;
  /** Runs a multi-statement SQL script (a migration) on the executor (the migrator's transaction). */
  execScript(executor: Kysely<DB>, script: string): Promise<void>;
  /** Resolves when the database answers a trivial query; rejects otherwise. */
  ping(): Promise<void>;
  /**
   * Hands every statement's duration (ms) and outcome to `observer` (the metrics), until the function
   * returned is called. One observer at a time; none by default.
   */
  observeQueries(observer: QueryObserver): () => void;
  close(): Promise<void>;
}

/** The application's database on the embedded server. */
export const EMBEDDED_DATABASE = 'risk';
/**
 * The role the service connects as on the embedded server: it owns nothing and is no superuser, so once the
 * owner (the server's superuser, which migrates) has granted it its rights, it may only append to and read
 * the audit trail (D7.5), as on an external server set up with two roles.
 */
export const EMBEDDED_RUNTIME_ROLE = 'risk_service';

const DATE_OID = 1082;
const INT8_OID = 20;

// pg parses DATE into a local-midnight Date, which shifts the day in non-UTC zones; keep the text.
pg.types.setTypeParser(DATE_OID, (value: string) => value);
// Counts and sums come back as int8; our values stay far below 2^53.
pg.types.setTypeParser(INT8_OID, (value: string) => Number(value));

export type QueryObserver = (durationMs: number, failed: boolean) => void;

export interface OpenOptions {
  poolSize?: number;
  /** How long a query waits for a pooled connection (default 5 s: then the request answers 503). */
  connectionTimeoutMs?: number;
  /** Start-up messages of the embedded server (started, joined, initialised). */
  log?: (message: string) => void;
  /**
   * `pgbouncer` (DATABASE_POOLER): the connection goes through PgBouncer in transaction mode, so every
   * statement takes Kysely's path (prepared.ts does not hand statements to the pool directly).
   */
  pooler?: 'none' | 'pgbouncer';
}

export async function openDatabase(target: DatabaseTarget, options: OpenOptions = {}): Promise<Database> {
  const pool = { max: options.poolSize ?? 10, connectionTimeoutMillis: options.connectionTimeoutMs ?? 5_000 };
  if (target.kind === 'postgres') {
    const database = openPool(target.url, null, pool, 'postgres', null, async () => undefined);
    if (options.pooler === 'pgbouncer') directPools.delete(database.db);
    return database;
  }
  if (target.kind === 'embedded-dir') {
    const server = await joinEmbeddedServer(target.dataDir, options.log !== undefined ? { log: options.log } : {});
    return onServer(server, pool, () => server.release());
  }
  // memory://: a server of its own in a temporary directory, removed when the database closes.
  const dir = mkdtempSync(join(tmpdir(), 'risk-memory-'));
  chmodSync(dir, 0o755);
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  let server: EmbeddedServer;
  try {
    server = await joinEmbeddedServer(dir, { ephemeral: true, ...(options.log !== undefined ? { log: options.log } : {}) });
  } catch (error) {
    removeDir();
    throw error;
  }
  // A process that exits without closing (a crash) must not leave the server and its files behind.
  const onExit = () => {
    server.stopNow();
    removeDir();
  };
  process.once('exit', onExit);
  return onServer(server, pool, async () => {
    process.removeListener('exit', onExit);
    await server.release();
    removeDir();
  });
}

type PoolOptions = { max: number; connectionTimeoutMillis: number };

const pools = new WeakMap<object, pg.Pool>();
/** The pools prepared.ts may send statements to directly: all but those behind PgBouncer (DATABASE_POOLER). */
const directPools = new WeakMap<object, pg.Pool>();

/**
 * The pg pool under a database's own Kysely instance; undefined for anything else (a transaction, a
 * Kysely made by withPlugin or withSchema), which must go through Kysely.
 */
export function poolOf(executor: object): pg.Pool | undefined {
  return pools.get(executor);
}

/** Makes `pool` the pool poolOf answers for `db`: a Kysely over a pool opened elsewhere (the read replica's). */
export function notePool(db: object, pool: pg.Pool): void {
  pools.set(db, pool);
}

/** poolOf, for a database not behind PgBouncer in transaction mode (DATABASE_POOLER=pgbouncer); else undefined. */
export function directPoolOf(executor: object): pg.Pool | undefined {
  return directPools.get(executor);
}

async function onServer(server: EmbeddedServer, pool: PoolOptions, release: () => Promise<void>): Promise<Database> {
  try {
    await server.ensureDatabase(EMBEDDED_DATABASE);
    await server.ensureRole(EMBEDDED_RUNTIME_ROLE);
  } catch (error) {
    await release();
    throw error;
  }
  const runtimeUrl = server.url({ database: EMBEDDED_DATABASE, role: EMBEDDED_RUNTIME_ROLE });
  return openPool(runtimeUrl, server.url({ database: EMBEDDED_DATABASE }), pool, 'embedded', server, release);
}

function openPool(
  url: string,
  ownerUrl: string | null,
  options: PoolOptions,
  engine: Database['engine'],
  server: EmbeddedServer | null,
  release: () => Promise<void>,
): Database {
  const pool = new pg.Pool({ connectionString: url, ...options });
  // A connection losing its server, idle or held by a request, must not end the process (connection-guard.ts).
  guardPool(pool);
  let observer: QueryObserver | null = null;
  const db = new Kysely<DB>({
    dialect: new PostgresDialect({ pool }),
    log: (event) => observer?.(event.queryDurationMillis, event.level === 'error'),
  });
  pools.set(db, pool);
  directPools.set(db, pool);
  let closed = false;
  return {
    db,
    engine,
    url,
    ownerUrl,
    server,
    async execScript(executor, script) {
      await sql.raw(script).execute(executor);
    },
    async ping() {
      if (closed) throw new Error('database is closed');
      await sql`select 1`.execute(db);
    },
    observeQueries(next) {
      observer = next;
      return () => {
        if (observer === next) observer = null;
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        await db.destroy();
      } finally {
        await release();
      }
    },
  };
}
