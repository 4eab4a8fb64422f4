import { sql, type Kysely } from 'kysely';
import type { DB } from './schema.js';

/**
 * Tables the service may only append to and read: no UPDATE, DELETE or TRUNCATE for its role (D7.5: entries
 * cannot be changed "even by SQL through the service's own database role"). A table not created yet (the BRA
 * snapshots) is covered from the first start after its migration.
 */
export const APPEND_ONLY_TABLES = ['audit_log', 'audit_checkpoints', 'bra_snapshots', 'risk_appetite_history', 'sub_control_tests', 'bra_comments', 'evidence_blobs'] as const;

/** Tables whose rows the service updates but never removes: the audit chain heads (moved forward only, by trigger). */
export const NO_DELETE_TABLES = ['audit_chain_heads'] as const;

/**
 * Run by the owner after the migrations, at every start: the runtime role gets read and write on every
 * table of the schema (so tables of later migrations are covered), then loses UPDATE, DELETE and TRUNCATE on
 * the append-only ones. It owns nothing, so it cannot ALTER a table (no DISABLE TRIGGER) and, not being a
 * superuser, cannot set session_replication_role; TRIGGER and REFERENCES are never granted.
 */
export async function grantRuntimePrivileges(owner: Kysely<DB>, runtimeRole: string): Promise<void> {
  const role = sql.id(runtimeRole);
  await sql`grant usage on schema public to ${role}`.execute(owner);
  await sql`grant select, insert, update, delete on all tables in schema public to ${role}`.execute(owner);
  await sql`grant usage, select on all sequences in schema public to ${role}`.execute(owner);
  await sql`revoke all on table kysely_migration, kysely_migration_lock from ${role}`.execute(owner);
  for (const table of APPEND_ONLY_TABLES) {
    const { rows } = await sql<{ present: boolean }>`select to_regclass(${`public.${table}`}) is not null as present`.execute(owner);
    if (rows[0]?.present) await sql`revoke update, delete, truncate on table ${sql.id(table)} from ${role}`.execute(owner);
  }
  for (const table of NO_DELETE_TABLES) await sql`revoke delete, truncate on table ${sql.id(table)} from ${role}`.execute(owner);
}

/**
 * True when this connection could rewrite the audit trail: its role owns audit_log (and so may disable
 * the immutability trigger), is a superuser, or holds UPDATE or DELETE on it. The service warns at start.
 */
export async function canRewriteAuditTrail(db: Kysely<DB>): Promise<boolean> {
  const { rows } = await sql<{ risky: boolean }>`
    select (select rolsuper from pg_roles where rolname = current_user)
      or pg_has_role(current_user, (select tableowner from pg_tables where schemaname = 'public' and tablename = 'audit_log'), 'USAGE')
      or has_table_privilege('audit_log', 'UPDATE') or has_table_privilege('audit_log', 'DELETE') as risky`.execute(db);
  return rows[0]?.risky === true;
}

/** The role a postgres:// URL connects as (libpq's default, the OS user, when the URL names none). */
export function roleOfUrl(url: string): string | null {
  const name = decodeURIComponent(new URL(url).username);
  return name === '' ? null : name;
}
