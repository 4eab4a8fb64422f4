import { sql } from 'kysely';
import type { Config } from '../../config.js';
import { openDatabase, type Database } from './engine.js';
import { migrateToLatest, type MigrationReport } from './migrator.js';
import { canRewriteAuditTrail, grantRuntimePrivileges } from './runtime-role.js';

/**
 * Brings the schema up to date. An owner role migrates when there is one: MIGRATION_DATABASE_URL's on an
 * external server, the server's superuser on the embedded engine. It then grants the service's role
 * (DATABASE_URL's, or EMBEDDED_RUNTIME_ROLE) what it may do: read and write, but only append to and read the
 * audit trail. Without one, the service's own role migrates, and owns what it should not.
 */
export async function setUpSchema(config: Config, database: Database): Promise<MigrationReport & { ownerRuns: boolean }> {
  const ownerUrl = config.migrationDatabaseUrl ?? database.ownerUrl;
  if (ownerUrl === null) {
    const report = await migrateToLatest(database);
    return { ...report, ownerRuns: await canRewriteAuditTrail(database.db) };
  }
  const owner = await openDatabase({ kind: 'postgres', url: ownerUrl }, { poolSize: 1 });
  try {
    const report = await migrateToLatest(owner);
    const runtimeRole = await currentRole(database);
    if ((await currentRole(owner)) !== runtimeRole) await grantRuntimePrivileges(owner.db, runtimeRole);
    return { ...report, ownerRuns: await canRewriteAuditTrail(database.db) };
  } finally {
    await owner.close();
  }
}

async function currentRole(database: Database): Promise<string> {
  const { rows } = await sql<{ role: string }>`select current_user as role`.execute(database.db);
  return rows[0]!.role;
}

export const OWNER_WARNING =
  'The service connects to the database as a role that can change or delete audit entries (the owner of ' +
  'audit_log, a superuser, or one granted UPDATE/DELETE on it). Run it as a separate runtime role and give ' +
  'the owner to MIGRATION_DATABASE_URL (README: "Two database roles").';
