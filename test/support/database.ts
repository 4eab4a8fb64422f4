import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import { PGLITE_PARSERS, openDatabase, wrapPglite, type Database } from '../../src/platform/db/engine.js';
import { withDatabase } from './global-setup.js';

export const engineUnderTest = (): 'pglite' | 'postgres' => (inject('serverUrl') === null ? 'pglite' : 'postgres');

/** A fresh, migrated database for one test file, cloned from the run's template. */
export async function freshDatabase(): Promise<Database & { url: string | null }> {
  const templatePath = inject('pgliteTemplatePath');
  if (templatePath !== null) {
    const dump = new Blob([readFileSync(templatePath)]);
    const pglite = await PGlite.create({ loadDataDir: dump, parsers: PGLITE_PARSERS });
    return { ...wrapPglite(pglite), url: null };
  }
  const serverUrl = inject('serverUrl') as string;
  const template = inject('serverTemplate') as string;
  const name = `${template}_f${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template ${template}`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(serverUrl, name);
  return { ...(await openDatabase({ kind: 'postgres', url }, { poolSize: 5 })), url };
}
