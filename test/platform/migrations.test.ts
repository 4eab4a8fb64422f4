import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/platform/db/engine.js';
import { migrateToLatest } from '../../src/platform/db/migrator.js';
import { loadMigrations } from '../../src/platform/db/migrations/index.js';
import { emptyDatabase, freshDatabase } from '../support/database.js';

const ALL = loadMigrations().map((migration) => migration.name);

async function tableNames(database: Database): Promise<string[]> {
  const { rows } = await sql<{ table_name: string }>`
    select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'
  `.execute(database.db);
  return rows.map((row) => row.table_name).sort();
}

describe('migrations', () => {
  // One clone of the migrated template and one empty database serve the whole file.
  let migrated: Database;
  let empty: Database;
  beforeAll(async () => {
    migrated = await freshDatabase();
    empty = await emptyDatabase();
  });
  afterAll(async () => {
    await migrated?.close();
    await empty?.close();
  });

  it('lists the migrations in timestamp order, each name unique', () => {
    expect(ALL.length).toBeGreaterThan(0);
    expect([...ALL].sort()).toEqual(ALL);
    expect(new Set(ALL).size).toBe(ALL.length);
    for (const name of ALL) expect(name).toMatch(/^\d{14}_[a-z0-9_]+$/);
  });

  it('applies nothing to an already migrated database, twice over', async () => {
    const tablesBefore = await tableNames(migrated);
    expect(await migrateToLatest(migrated)).toEqual({ applied: [] });
    expect(await migrateToLatest(migrated)).toEqual({ applied: [] });
    expect(await tableNames(migrated)).toEqual(tablesBefore);
  });

  it('applies every migration in order to an empty database and creates the tables', async () => {
    const database = empty;
    expect(await tableNames(database)).toEqual([]);
    expect(await migrateToLatest(database)).toEqual({ applied: ALL });
    const tables = await tableNames(database);
    for (const table of ['enterprises', 'users', 'enterprise_members', 'auth_sessions', 'platform_secrets', 'audit_log', 'bras']) {
      expect(tables).toContain(table);
    }
    const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(database.db);
    expect(rows.map((row) => row.name)).toEqual(ALL);
    // The same tables as the template every suite clones.
    expect(tables).toEqual(await tableNames(migrated));
  });

  it('then applies nothing on a second run (D1: migrations run at every start-up)', async () => {
    expect(await migrateToLatest(empty)).toEqual({ applied: [] });
  });
});
