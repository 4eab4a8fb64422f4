import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import type { DatabaseTarget } from '../../config.js';
import type { DB } from './schema.js';

/**
 * One PostgreSQL dialect, two engines: a pooled server connection or PGlite in process.
 * Both hand dates back as 'YYYY-MM-DD' text and timestamps as Date (rendered with a Z by the serializer),
 * so no layer above has to know which engine it runs on.
 */
export interface Database {
  db: Kysely<DB>;
  engine: 'postgres' | 'pglite';
  /**
   * Runs a multi-statement SQL script (a migration). PGlite's extended-protocol query takes one statement,
   * so scripts go through its exec; PGlite has one session, so this joins the migrator's open transaction.
   */
  execScript(executor: Kysely<DB>, script: string): Promise<void>;
  /** Resolves when the database answers a trivial query; rejects otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

const DATE_OID = 1082;
const INT8_OID = 20;

// pg parses DATE into a local-midnight Date, which shifts the day in non-UTC zones; keep the text.
pg.types.setTypeParser(DATE_OID, (value: string) => value);
// Counts and sums come back as int8; our values stay far below 2^53.
pg.types.setTypeParser(INT8_OID, (value: string) => Number(value));

export interface OpenOptions {
  /** Starts PGlite from a dump of an already migrated database (test templates). */
  loadDataDir?: Blob;
  poolSize?: number;
}

export async function openDatabase(target: DatabaseTarget, options: OpenOptions = {}): Promise<Database> {
  if (target.kind === 'postgres') return openPostgres(target.url, options.poolSize ?? 10);
  const dataDir = target.kind === 'pglite-dir' ? target.dataDir : undefined;
  if (dataDir !== undefined) mkdirSync(dataDir, { recursive: true });
  const pglite = await PGlite.create({
    ...(dataDir !== undefined ? { dataDir: `${dataDir}/pgdata` } : {}),
    ...(options.loadDataDir !== undefined ? { loadDataDir: options.loadDataDir } : {}),
    parsers: PGLITE_PARSERS,
  });
  return wrapPglite(pglite);
}

/** Wraps a PGlite instance the caller created (the test harness clones a migrated template this way). */
export function wrapPglite(pglite: PGlite): Database {
  return wrap(new Kysely<DB>({ dialect: new PGliteDialect(pglite) }), 'pglite', { pglite });
}

export const PGLITE_PARSERS = {
  [DATE_OID]: (value: string) => value,
  [INT8_OID]: (value: string) => Number(value),
};

function openPostgres(url: string, max: number): Database {
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 5_000 });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', () => undefined);
  return wrap(new Kysely<DB>({ dialect: new PostgresDialect({ pool }) }), 'postgres', {});
}

function wrap(db: Kysely<DB>, engine: Database['engine'], handles: { pglite?: PGlite }): Database {
  let closed = false;
  return {
    db,
    engine,
    async execScript(executor, script) {
      if (handles.pglite !== undefined) await handles.pglite.exec(script);
      else await sql.raw(script).execute(executor);
    },
    async ping() {
      if (closed || handles.pglite?.closed) throw new Error('database is closed');
      await sql`select 1`.execute(db);
    },
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy();
    },
  };
}
