import { createHash, randomBytes } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/platform/db/engine.js';
import { joinEmbeddedServer } from '../../src/platform/db/embedded/embedded-server.js';
import { migrateToLatest } from '../../src/platform/db/migrator.js';
import { grantRuntimePrivileges } from '../../src/platform/db/runtime-role.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Which engine the run tests: the embedded server (PostgreSQL 18) or TEST_DATABASE_URL's server. */
    engine: 'embedded' | 'postgres';
    /** A superuser URL of the server (its `postgres` database) and the name of the migrated template. */
    serverUrl: string;
    serverTemplate: string;
    /**
     * The run's runtime role (a login of its own with a password, so that it signs in on servers without
     * trust authentication): granted on the template what the service's role is granted at start-up, so
     * that every clone carries the grants. Test apps connect as it.
     */
    runtimeRole: { name: string; password: string };
  }
}

/**
 * Where the run's embedded server lives: in the temporary directory, one per checkout (a run killed half-way
 * leaves it running for the next run to adopt; a finished run removes it unless KEEP_TEST_CLUSTER=1). Not inside the checkout: as root, the server runs as the
 * user `postgres`, which cannot reach a checkout under a 0700 home.
 */
export const TEST_DATA_DIR = join(tmpdir(), `risk-test-${createHash('sha256').update(process.cwd()).digest('hex').slice(0, 12)}`);

/**
 * Migrates one template per run (migrations cost seconds); every test file then clones it with
 * CREATE DATABASE ... TEMPLATE (about 50 ms). Without TEST_DATABASE_URL the run uses one embedded server
 * under TEST_DATA_DIR, tuned for throw-away data, and stops it at the end.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const externalUrl = process.env['TEST_DATABASE_URL']?.trim() || null;
  const server =
    externalUrl === null
      ? await joinEmbeddedServer(TEST_DATA_DIR, { ephemeral: true, settings: { max_connections: '300' } })
      : null;
  const serverUrl = externalUrl ?? (server?.url({ database: 'postgres' }) as string);

  const template = `test_template_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${template}`);
  const runtimeRole = { name: `${template}_runtime`, password: randomBytes(16).toString('hex') };
  await admin.query(`create role ${runtimeRole.name} login password '${runtimeRole.password}'`);
  const database = await openDatabase({ kind: 'postgres', url: withDatabase(serverUrl, template) }, { poolSize: 2 });
  await migrateToLatest(database);
  await grantRuntimePrivileges(database.db, runtimeRole.name);
  await database.close();
  project.provide('engine', server === null ? 'postgres' : 'embedded');
  project.provide('serverUrl', serverUrl);
  project.provide('serverTemplate', template);
  project.provide('runtimeRole', runtimeRole);
  return async () => {
    // Drop the template and every database this run cloned from it, then leave the server.
    const { rows } = await admin.query<{ datname: string }>(
      `select datname from pg_database where datname = $1 or datname like $2`,
      [template, `${template}\\_%`],
    );
    for (const { datname } of rows) await admin.query(`drop database if exists ${datname} with (force)`);
    // Its grants went with the databases; roles of test files (runtime-role suites) are theirs to drop.
    await admin.query(`drop role if exists ${runtimeRole.name}`);
    await admin.end();
    await server?.release();
    // The run's cluster (about 100 MB) goes too, unless kept to look into (KEEP_TEST_CLUSTER=1), or another run
    // of this checkout still uses it (its server still runs).
    if (server !== null && process.env['KEEP_TEST_CLUSTER'] !== '1' && !existsSync(join(TEST_DATA_DIR, 'postgres', 'postmaster.pid'))) {
      rmSync(TEST_DATA_DIR, { recursive: true, force: true });
    }
  };
}

/** The URL of another database on the same server (works for socket URLs too: the host is a parameter). */
export function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}
