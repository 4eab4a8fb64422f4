import { sql, type Kysely } from 'kysely';

/**
 * Readiness for sharding by tenant (docs/scaling-sharding.md). In Citus's model every tenant table is
 * distributed by enterprise_id and co-located with the others; a shard can only enforce a primary key or a
 * unique constraint that includes the distribution column, and only a foreign key that includes it on both
 * sides (the rows it joins live on the same shard). So, for every table of the schema that is not exempt:
 *
 * - it has an `enterprise_id` column, NOT NULL;
 * - its primary key includes enterprise_id;
 * - every unique constraint and every unique index (partial and expression ones too) includes it as a key column;
 * - every foreign key to another tenant table includes it, matched to the other table's enterprise_id;
 *
 * and no exempt (global) table has a foreign key to a tenant table (a reference table cannot point at a
 * distributed one). Every exemption gives its reason, and one that names nothing in the schema is reported,
 * so that the lists stay true.
 */

export interface ShardingExemptions {
  /** Not distributed by enterprise: reference tables (copied to every node) or the coordinator's own. */
  global: Readonly<Record<string, string>>;
  /**
   * Tenant tables that also hold the platform's rows (enterprise_id null): exempt from NOT NULL and from the
   * primary key rule only; their unique constraints and foreign keys are checked like any tenant table's.
   */
  platformRows: Readonly<Record<string, string>>;
  /** Unique indexes or constraints (by name) of tenant tables that keep a rule across enterprises. */
  crossTenantUniques: Readonly<Record<string, string>>;
}

/** The exemptions of this schema. A new table is a tenant table unless it is added here, with its reason. */
export const SHARDING_EXEMPTIONS: ShardingExemptions = {
  global: {
    kysely_migration: 'schema bookkeeping of the migrator: one copy, on the coordinator',
    kysely_migration_lock: 'schema bookkeeping of the migrator: one copy, on the coordinator',
    enterprises:
      'the tenant registry itself: a reference table (every tenant table points at it; a name is unique across the platform)',
    users: 'identities are platform-wide (a super admin belongs to no enterprise; an e-mail is unique across the platform): a reference table',
    auth_sessions: "the embedded provider's sign-in sessions, per user, not per enterprise",
    auth_refresh_tokens: "the embedded provider's refresh tokens, per session",
    auth_sign_in_origins: 'where each identity recently signed in from, per user (a super admin has no enterprise)',
    auth_one_time_tokens: 'invitation and recovery links, per user (a recovery names no enterprise)',
    auth_signing_keys: "the platform's token signing keys: one key set for every instance",
    platform_secrets: "the platform's generated secrets",
    mail_outbox: 'mail goes to an address, whoever it belongs to; the link row it sends names the enterprise',
    system_alerts: "the super admins' alert queue, across enterprises (enterprise_id null: a platform alert)",
    idempotency_keys: 'stored first answers per caller (user_id); a super admin has no enterprise',
    audit_chain_heads: "one row per hash chain, keyed by the enterprise's id or 'platform' (see audit_log)",
    scheduled_job_runs: "the scheduled jobs' claims of their periods (once per period across instances): the platform's, no tenant's",
  },
  platformRows: {
    audit_log:
      "the platform's trail (enterprise_id null) is kept beside the enterprises' trails; a move to Citus splits it out first",
    audit_checkpoints: "signed checkpoints of the chains, the platform's (enterprise_id null) among them; as audit_log",
  },
  crossTenantUniques: {
    enterprise_members_active_user_key:
      'a user has at most one active membership, whatever the enterprise (D9.3); under Citus this rule moves to the users reference table',
    sso_domains_verified_key:
      'an e-mail domain is verified for one enterprise at most (single sign-on routes by it); under Citus this rule moves to a reference table of verified domains',
  },
};

interface TableRow {
  name: string;
  enterprise_column: boolean;
  enterprise_not_null: boolean;
}
interface ConstraintRow {
  table_name: string;
  name: string;
  kind: 'p' | 'u' | 'f';
  columns: string[];
  target: string | null;
  target_columns: string[] | null;
  definition: string;
}
interface UniqueIndexRow {
  table_name: string;
  name: string;
  key_columns: string[];
  definition: string;
}

const WHERE_TO_EXEMPT = 'or, if it is not a tenant\'s, list it with its reason in SHARDING_EXEMPTIONS (test/architecture/sharding-ready.ts)';

/** The problems of one schema, one line each naming the table and what to do; none when it is ready. */
export async function shardingProblems(db: Kysely<any>, schema: string, exemptions: ShardingExemptions = SHARDING_EXEMPTIONS): Promise<string[]> {
  const { rows: tables } = await sql<TableRow>`
    select c.relname as name,
           a.attname is not null as enterprise_column,
           coalesce(a.attnotnull, false) as enterprise_not_null
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    left join pg_attribute a on a.attrelid = c.oid and a.attname = 'enterprise_id' and not a.attisdropped
    where n.nspname = ${schema} and c.relkind in ('r', 'p') and not c.relispartition
    order by c.relname`.execute(db);
  const { rows: constraints } = await sql<ConstraintRow>`
    select src.relname as table_name, con.conname as name, con.contype as kind,
           array(select a.attname from unnest(con.conkey) with ordinality k (num, pos)
                 join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.num order by k.pos)::text[] as columns,
           dst.relname as target,
           case when con.contype = 'f' then
             array(select a.attname from unnest(con.confkey) with ordinality k (num, pos)
                   join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.num order by k.pos)::text[]
           end as target_columns,
           pg_get_constraintdef(con.oid) as definition
    from pg_constraint con
    join pg_class src on src.oid = con.conrelid
    join pg_namespace n on n.oid = src.relnamespace
    left join pg_class dst on dst.oid = con.confrelid
    where n.nspname = ${schema} and con.contype in ('p', 'u', 'f')
    order by src.relname, con.conname`.execute(db);
  // Unique indexes that no constraint owns (partial ones, expression ones): key columns only (not INCLUDE).
  const { rows: uniqueIndexes } = await sql<UniqueIndexRow>`
    select t.relname as table_name, i.relname as name,
           array(select a.attname from unnest((x.indkey::int2[])[0:x.indnkeyatts - 1]) k (num)
                 join pg_attribute a on a.attrelid = x.indrelid and a.attnum = k.num)::text[] as key_columns,
           pg_get_indexdef(x.indexrelid) as definition
    from pg_index x
    join pg_class i on i.oid = x.indexrelid
    join pg_class t on t.oid = x.indrelid
    join pg_namespace n on n.oid = t.relnamespace
    where n.nspname = ${schema} and x.indisunique
      and not exists (select 1 from pg_constraint con where con.conindid = x.indexrelid and con.contype in ('p', 'u', 'x'))
    order by t.relname, i.relname`.execute(db);

  const problems: string[] = [];
  const present = new Set(tables.map((table) => table.name));
  const isGlobal = (name: string) => Object.hasOwn(exemptions.global, name);
  const hasPlatformRows = (name: string) => Object.hasOwn(exemptions.platformRows, name);
  const isTenant = (name: string) => present.has(name) && !isGlobal(name);
  // A table without the column gets that one problem: adding the column comes before keying on it.
  const lacksColumn = new Set(tables.filter((t) => isTenant(t.name) && !t.enterprise_column).map((t) => t.name));

  for (const table of tables.filter((t) => isTenant(t.name))) {
    if (!table.enterprise_column) {
      problems.push(
        `${table.name}: no enterprise_id column. Add enterprise_id uuid not null references enterprises (id) (backfilled from its parent row), ${WHERE_TO_EXEMPT}`,
      );
      continue;
    } else if (!table.enterprise_not_null && !hasPlatformRows(table.name)) {
      problems.push(`${table.name}: enterprise_id may be null. Backfill it and set it NOT NULL (a shard cannot hold a row without its tenant)`);
    }
    if (hasPlatformRows(table.name)) continue;
    const primaryKey = constraints.find((c) => c.table_name === table.name && c.kind === 'p');
    if (primaryKey === undefined) {
      problems.push(`${table.name}: no primary key. Add one that includes enterprise_id, e.g. primary key (id, enterprise_id)`);
    } else if (!primaryKey.columns.includes('enterprise_id')) {
      problems.push(
        `${table.name}: primary key ${primaryKey.name} ${primaryKey.definition} lacks enterprise_id. Make it (${[...primaryKey.columns, 'enterprise_id'].join(', ')})`,
      );
    }
  }

  const exemptUnique = (name: string) => Object.hasOwn(exemptions.crossTenantUniques, name);
  for (const unique of constraints.filter((c) => c.kind === 'u' && isTenant(c.table_name) && !lacksColumn.has(c.table_name))) {
    if (!unique.columns.includes('enterprise_id') && !exemptUnique(unique.name)) {
      problems.push(
        `${unique.table_name}: unique constraint ${unique.name} ${unique.definition} lacks enterprise_id. Add enterprise_id to its columns (a shard only sees its own tenants' rows)`,
      );
    }
  }
  for (const index of uniqueIndexes.filter((i) => isTenant(i.table_name) && !lacksColumn.has(i.table_name))) {
    if (!index.key_columns.includes('enterprise_id') && !exemptUnique(index.name)) {
      problems.push(
        `${index.table_name}: unique index ${index.name} (${index.definition}) lacks enterprise_id. Add enterprise_id as a key column (a shard only sees its own tenants' rows)`,
      );
    }
  }

  for (const foreignKey of constraints.filter((c) => c.kind === 'f' && c.target !== null)) {
    const target = foreignKey.target!;
    if (isGlobal(foreignKey.table_name)) {
      if (isTenant(target)) {
        problems.push(
          `${foreignKey.table_name}: foreign key ${foreignKey.name} points at the tenant table ${target}, but ${foreignKey.table_name} is global (a reference table cannot point at a distributed one). Drop the key or make ${foreignKey.table_name} a tenant table`,
        );
      }
      continue;
    }
    if (!isTenant(foreignKey.table_name) || !isTenant(target) || lacksColumn.has(foreignKey.table_name)) continue;
    const at = foreignKey.columns.indexOf('enterprise_id');
    if (at < 0 || foreignKey.target_columns![at] !== 'enterprise_id') {
      problems.push(
        `${foreignKey.table_name}: foreign key ${foreignKey.name} ${foreignKey.definition} does not match enterprise_id with ${target}.enterprise_id. Make it foreign key (enterprise_id, …) references ${target} (enterprise_id, …), on a unique key of ${target} that includes enterprise_id`,
      );
    }
  }

  for (const [list, names] of Object.entries({
    global: exemptions.global,
    platformRows: exemptions.platformRows,
  })) {
    for (const name of Object.keys(names)) {
      if (!present.has(name)) problems.push(`${name}: listed in SHARDING_EXEMPTIONS.${list} but no such table exists. Remove it from the list`);
    }
  }
  const uniqueNames = new Set([...constraints.filter((c) => c.kind === 'u').map((c) => c.name), ...uniqueIndexes.map((i) => i.name)]);
  for (const name of Object.keys(exemptions.crossTenantUniques)) {
    if (!uniqueNames.has(name)) problems.push(`${name}: listed in SHARDING_EXEMPTIONS.crossTenantUniques but no such unique index exists. Remove it from the list`);
  }
  return problems;
}
