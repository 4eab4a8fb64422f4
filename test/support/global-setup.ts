import { mkdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { PGLITE_PARSERS, openDatabase, wrapPglite } from '../../src/platform/db/engine.js';
import { migrateToLatest } from '../../src/platform/db/migrator.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Embedded leg: the file holding a dump of a migrated PGlite database. */
    pgliteTemplatePath: string | null;
    /** Server leg: the URL of the server and the name of the migrated template database. */
    serverUrl: string | null;
    serverTemplate: string | null;
  }
}

/**
 * Migrates one template per run (initdb and migrations cost seconds); every test file then clones it:
 * PGlite from a dump of its data directory, a server by CREATE DATABASE ... TEMPLATE.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const serverUrl = process.env['TEST_DATABASE_URL']?.trim() || null;
  if (serverUrl === null) {
    const pglite = await PGlite.create({ parsers: PGLITE_PARSERS });
    const database = wrapPglite(pglite);
    await migrateToLatest(database);
    const dump = await pglite.dumpDataDir('gzip');
    await database.close();
    mkdirSync('.test-data', { recursive: true });
    const path = `.test-data/template-${process.pid}.tar.gz`;
    writeFileSync(path, Buffer.from(await dump.arrayBuffer()));
    project.provide('pgliteTemplatePath', path);
    project.provide('serverUrl', null);
    project.provide('serverTemplate', null);
    return async () => {
      const { rmSync } = await import('node:fs');
      rmSync(path, { force: true });
    };
  }

  const template = `test_template_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${template}`);
  const database = await openDatabase({ kind: 'postgres', url: withDatabase(serverUrl, template) }, { poolSize: 2 });
  await migrateToLatest(database);
  await database.close();
  project.provide('pgliteTemplatePath', null);
  project.provide('serverUrl', serverUrl);
  project.provide('serverTemplate', template);
  return async () => {
    // Drop the template and every clone this run made.
    const { rows } = await admin.query<{ datname: string }>(
      `select datname from pg_database where datname = $1 or datname like $2`,
      [template, `${template}_f%`],
    );
    for (const { datname } of rows) await admin.query(`drop database if exists ${datname} with (force)`);
    await admin.end();
  };
}

export function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}
