import { sql } from 'kysely';
import type { Config } from '../../config.js';
import { openDatabase, type Database } from './engine.js';
import { migrateToLatest, type MigrationReport } from './migrator.js';
import { canRewriteAuditTrail, grantRuntimePrivileges } from './runtime-role.js';

/**
 * Brings the schema up to date. With MIGRATION_DATABASE_URL the migrations run as that (owner) role, which
 * then grants the service's role (DATABASE_URL's) what it may do: read and write, but only append to and read
 * the audit trail. Without it, the service's own role migrates, and owns what it should not.
 */
export async function setUpSchema(config: Config, database: Database): Promise<MigrationReport & { ownerRuns: boolean }> {
  if (config.migrationDatabaseUrl === null) {
    const report = await migrateToLatest(database);
    // Only a server has roles to separate; the in-process embedded database has a single user.
    return { ...report, ownerRuns: config.database.kind === 'postgres' && (await canRewriteAuditTrail(database.db)) };
  }
  const owner = await openDatabase({ kind: 'postgres', url: config.migrationDatabaseUrl }, { poolSize: 1 });
  try {
    const report = await migrateToLatest(owner);
    const { rows } = await sql<{ role: string }>`select current_user as role`.execute(database.db);
    const runtimeRole = rows[0]!.role;
    const { rows: ownerRows } = await sql<{ role: string }>`select current_user as role`.execute(owner.db);
    if (ownerRows[0]!.role !== runtimeRole) await grantRuntimePrivileges(owner.db, runtimeRole);
    return { ...report, ownerRuns: await canRewriteAuditTrail(database.db) };
  } finally {
    await owner.close();
  }
}

export const OWNER_WARNING =
  'The service connects to the database as a role that can change or delete audit entries (the owner of ' +
  'audit_log, a superuser, or one granted UPDATE/DELETE on it). Run it as a separate runtime role and give ' +
  'the owner to MIGRATION_DATABASE_URL (README: "Two database roles").';
