import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../support/database.js';
import { SHARDING_EXEMPTIONS, shardingProblems, type ShardingExemptions } from './sharding-ready.js';

/** The rule, its exemptions and their reasons: sharding-ready.ts; the sharding path: docs/scaling-sharding.md. */
describe('the schema is ready for sharding by enterprise', async () => {
  const database = await freshDatabase();
  afterAll(() => database.close());

  it('every tenant table of the migrations carries enterprise_id, and its keys and foreign keys include it', async () => {
    const problems = await shardingProblems(database.db, 'public');
    expect(problems, `Not ready for sharding by enterprise:\n${problems.join('\n')}\n`).toEqual([]);
  });

  it('the migrated schema has the tenant tables the rule is about, and the exemptions say why', async () => {
    const { rows } = await sql<{ name: string }>`
      select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'r'`.execute(database.db);
    const tenant = rows.map((row) => row.name).filter((name) => !Object.hasOwn(SHARDING_EXEMPTIONS.global, name));
    expect(tenant).toEqual(expect.arrayContaining(['bras', 'bra_ratings', 'mitigation_actions', 'sub_controls', 'webhook_deliveries', 'audit_log']));
    expect(tenant.length).toBeGreaterThan(20);
    for (const reasons of Object.values(SHARDING_EXEMPTIONS)) {
      for (const [name, reason] of Object.entries(reasons as Record<string, string>)) expect(reason.length, name).toBeGreaterThan(20);
    }
  });

  it('the keys serve the lookups by id alone: id leads every primary key it is part of', async () => {
    const { rows } = await sql<{ table_name: string; columns: string[] }>`
      select src.relname as table_name,
             array(select a.attname from unnest(con.conkey) with ordinality k (num, pos)
                   join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.num order by k.pos)::text[] as columns
      from pg_constraint con join pg_class src on src.oid = con.conrelid join pg_namespace n on n.oid = src.relnamespace
      where n.nspname = 'public' and con.contype = 'p'`.execute(database.db);
    const withId = rows.filter((row) => row.columns.includes('id'));
    expect(withId.length).toBeGreaterThan(15);
    for (const row of withId) expect(row.columns[0], row.table_name).toBe('id');
  });

  describe('the check reports a table that breaks the rule, naming it and what to do', () => {
    const schema = `sharding_check_${randomBytes(4).toString('hex')}`;
    const exemptions: ShardingExemptions = {
      global: { catalogue: 'a platform-wide catalogue', gone: 'a table since dropped' },
      platformRows: { trail: 'platform rows beside the tenants' },
      crossTenantUniques: { good_parent_code_key: 'a code unique across tenants', missing_key: 'an index since dropped' },
    };

    it('each kind of breach, and nothing for the tables that follow the rule', async () => {
      const s = schema;
      await database.execScript(
        database.db,
        `create schema ${s};
        create table ${s}.no_enterprise (id uuid primary key, name text);
        create table ${s}.bad_parent (id uuid primary key, enterprise_id uuid not null);
        create table ${s}.nullable_tenant (id uuid not null, enterprise_id uuid, constraint nullable_tenant_key unique (enterprise_id, id));
        create table ${s}.good_parent (id uuid, enterprise_id uuid not null, name text, code text, primary key (id, enterprise_id),
          constraint good_parent_code_key unique (code));
        create unique index good_parent_name_key on ${s}.good_parent (lower(name)) where code is null;
        create unique index good_parent_scoped_name_key on ${s}.good_parent (enterprise_id, lower(name));
        create table ${s}.catalogue (id uuid primary key, parent_id uuid, parent_enterprise_id uuid,
          constraint catalogue_parent_fkey foreign key (parent_id, parent_enterprise_id) references ${s}.good_parent (id, enterprise_id));
        create table ${s}.bad_child (id uuid, enterprise_id uuid not null, parent_id uuid, other_parent_id uuid,
          primary key (id, enterprise_id),
          constraint bad_child_parent_fkey foreign key (parent_id) references ${s}.bad_parent (id),
          constraint bad_child_crossed_fkey foreign key (other_parent_id, enterprise_id) references ${s}.good_parent (enterprise_id, id),
          constraint bad_child_parent_key unique (parent_id));
        create table ${s}.good_child (id uuid, enterprise_id uuid not null, parent_id uuid, primary key (id, enterprise_id),
          constraint good_child_parent_fkey foreign key (enterprise_id, parent_id) references ${s}.good_parent (enterprise_id, id),
          constraint good_child_catalogue_fkey foreign key (id) references ${s}.catalogue (id));
        create table ${s}.trail (id uuid primary key, enterprise_id uuid, seq bigint, constraint trail_seq_key unique (seq));`,
      );
      try {
        const problems = await shardingProblems(database.db, schema, exemptions);
        const about = (table: string) => problems.filter((problem) => problem.startsWith(`${table}:`));

        expect(about('no_enterprise')).toEqual([expect.stringMatching(/no enterprise_id column\. Add enterprise_id uuid not null.*SHARDING_EXEMPTIONS/)]);
        expect(about('bad_parent')).toEqual([expect.stringMatching(/primary key bad_parent_pkey PRIMARY KEY \(id\) lacks enterprise_id\. Make it \(id, enterprise_id\)/)]);
        expect(about('nullable_tenant')).toEqual([expect.stringMatching(/enterprise_id may be null/), expect.stringMatching(/no primary key/)]);
        expect(about('good_parent')).toEqual([expect.stringMatching(/unique index good_parent_name_key .* lacks enterprise_id/)]);
        expect(about('bad_child')).toHaveLength(3);
        expect(about('bad_child')).toEqual(
          expect.arrayContaining([
            expect.stringMatching(/unique constraint bad_child_parent_key UNIQUE \(parent_id\) lacks enterprise_id/),
            expect.stringMatching(/foreign key bad_child_parent_fkey .* does not match enterprise_id with bad_parent\.enterprise_id/),
            expect.stringMatching(/foreign key bad_child_crossed_fkey .* does not match enterprise_id with good_parent\.enterprise_id/),
          ]),
        );
        expect(about('good_child')).toEqual([]);
        expect(about('catalogue')).toEqual([expect.stringMatching(/points at the tenant table good_parent.*global/)]);
        // Platform rows: null enterprise_id and a primary key on id are allowed; a unique key without it is not.
        expect(about('trail')).toEqual([expect.stringMatching(/unique constraint trail_seq_key .* lacks enterprise_id/)]);
        expect(about('gone')).toEqual([expect.stringMatching(/SHARDING_EXEMPTIONS\.global but no such table exists/)]);
        expect(about('missing_key')).toEqual([expect.stringMatching(/no such unique index exists/)]);
        expect(problems).toHaveLength(12);
      } finally {
        await database.execScript(database.db, `drop schema ${schema} cascade`);
      }
    });
  });
});
