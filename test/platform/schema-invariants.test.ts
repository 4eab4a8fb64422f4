import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../support/database.js';

/**
 * Tenancy in the schema itself (issue: every tenant-owned table carries enterprise_id, the distribution
 * key should we shard by tenant, and every foreign key between tenant tables includes it).
 */
describe('tenant keys in the schema', async () => {
  const database = await freshDatabase();
  afterAll(() => database.close());

  const { rows: tables } = await sql<{ table_name: string; has_enterprise: boolean }>`
    select t.table_name,
           exists (select 1 from information_schema.columns c
                   where c.table_schema = 'public' and c.table_name = t.table_name and c.column_name = 'enterprise_id') as has_enterprise
    from information_schema.tables t
    where t.table_schema = 'public' and t.table_type = 'BASE TABLE' and t.table_name not like 'kysely_%'`.execute(database.db);
  const tenantTables = new Set(tables.filter((t) => t.has_enterprise).map((t) => t.table_name));
  // Platform-wide tables: identities, sessions, secrets and signing keys, the enterprises themselves, chain
  // heads, and the mail outbox (a message goes to an address, whoever's; its link row names the enterprise).
  const PLATFORM_TABLES = [
    'mail_outbox',
    'enterprises',
    'users',
    'auth_sessions',
    'auth_refresh_tokens',
    // Where each identity recently signed in from (decisions.md, "Sign-in from devices seen before").
    'auth_sign_in_origins',
    'auth_signing_keys',
    'platform_secrets',
    'audit_chain_heads',
    // Stored answers of Idempotency-Key requests, per caller (a super admin has no enterprise).
    'idempotency_keys',
    // The scheduled jobs' claims of their periods (once per period across instances, docs/scaling.md).
    'scheduled_job_runs',
  ];

  it('every table is either platform-wide by design or carries enterprise_id', () => {
    const withoutTenant = tables.filter((t) => !t.has_enterprise).map((t) => t.table_name);
    expect(withoutTenant.sort()).toEqual([...PLATFORM_TABLES].sort());
  });

  it('every foreign key from one tenant table to another includes enterprise_id', async () => {
    const { rows } = await sql<{ name: string; source: string; target: string; columns: string[] }>`
      select con.conname as name, src.relname as source, dst.relname as target,
             array(select a.attname from unnest(con.conkey) k join pg_attribute a
                   on a.attrelid = con.conrelid and a.attnum = k)::text[] as columns
      from pg_constraint con
      join pg_class src on src.oid = con.conrelid
      join pg_class dst on dst.oid = con.confrelid
      join pg_namespace n on n.oid = src.relnamespace
      where con.contype = 'f' and n.nspname = 'public'`.execute(database.db);
    const betweenTenants = rows.filter((fk) => tenantTables.has(fk.source) && tenantTables.has(fk.target));
    expect(betweenTenants.length).toBeGreaterThan(5);
    for (const fk of betweenTenants) expect(fk.columns, fk.name).toContain('enterprise_id');
  });
});
