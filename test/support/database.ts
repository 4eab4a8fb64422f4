import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../../src/platform/db/engine.js';
import { withDatabase } from './global-setup.js';

/** The engine of this run: the embedded server (PostgreSQL 18) or TEST_DATABASE_URL's server. */
export const engineUnderTest = (): 'embedded' | 'postgres' => inject('engine');

/** Creates a database on the run's server: a clone of the migrated template, or an empty one. */
async function createDatabase(name: string, fromTemplate: boolean): Promise<string> {
  const serverUrl = inject('serverUrl');
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}${fromTemplate ? ` template ${inject('serverTemplate')}` : ''}`);
  } finally {
    await admin.end();
  }
  return withDatabase(serverUrl, name);
}

async function dropDatabase(name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: inject('serverUrl') });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${name} with (force)`);
  } finally {
    await admin.end();
  }
}

/**
 * A database of the run's server for one test file, dropped when it closes: a clone of the migrated
 * template (fresh) or an empty one (for migration tests). Its name starts with the template's, so the
 * run's teardown drops whatever a crashed file left behind.
 */
async function databaseOfRun(fromTemplate: boolean): Promise<Database> {
  const name = `${inject('serverTemplate')}_${fromTemplate ? 'f' : 'e'}${randomBytes(6).toString('hex')}`;
  // Suites fire hundreds of concurrent transactions at 5 connections on a shared 2-core machine: a query
  // may wait long for its connection, which is no failure of the code under test.
  const database = await openDatabase(
    { kind: 'postgres', url: await createDatabase(name, fromTemplate) },
    { poolSize: 5, connectionTimeoutMs: 60_000 },
  );
  let dropped: Promise<void> | null = null;
  return {
    ...database,
    engine: engineUnderTest(),
    close() {
      dropped ??= database.close().then(() => dropDatabase(name));
      return dropped;
    },
  };
}

/** A fresh, migrated database for one test file, cloned from the run's template. */
export function freshDatabase(): Promise<Database> {
  return databaseOfRun(true);
}

/**
 * The same database as `owner`, reached as the run's runtime role: what the service's role may do (read and
 * write, only append to and read the audit trail), as the embedded engine and a two-role server run it.
 * Closing it closes the owner's too (and so drops the database).
 */
export async function asRuntimeRole(owner: Database): Promise<Database> {
  const { name, password } = inject('runtimeRole');
  const url = Object.assign(new URL(owner.url), { username: name, password }).toString();
  const runtime = await openDatabase({ kind: 'postgres', url }, { poolSize: 5, connectionTimeoutMs: 60_000 });
  return {
    ...runtime,
    engine: owner.engine,
    ownerUrl: owner.url,
    async close() {
      try {
        await runtime.close();
      } finally {
        await owner.close();
      }
    },
  };
}

/** An empty database (no migrations applied) on the run's server. */
export function emptyDatabase(): Promise<Database> {
  return databaseOfRun(false);
}
