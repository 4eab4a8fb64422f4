import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Database } from './engine.js';
import { loadMigrations } from './migrations/index.js';

export interface MigrationReport {
  applied: string[];
}

/**
 * Applies pending migrations with Kysely's migrator (one transaction, an advisory lock on PostgreSQL so
 * that two instances starting together do not race). A second run applies nothing.
 */
export async function migrateToLatest(database: Database): Promise<MigrationReport> {
  const provider: MigrationProvider = {
    async getMigrations() {
      const migrations: Record<string, Migration> = {};
      for (const { name, script } of loadMigrations()) {
        migrations[name] = { up: (db) => database.execScript(db, script) };
      }
      return migrations;
    },
  };
  const migrator = new Migrator({ db: database.db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName;
    throw new Error(`Migration ${failed ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  return { applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName) };
}
