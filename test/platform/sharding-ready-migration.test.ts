import { Migrator, sql, type Migration } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/platform/db/migrator.js';
import { loadMigrations } from '../../src/platform/db/migrations/index.js';
import { emptyDatabase } from '../support/database.js';
import { shardingProblems } from '../architecture/sharding-ready.js';

const SHARDING_MIGRATION = '20261128300000_sharding_ready';

/**
 * The migration that re-keys the tenant tables (primary keys with enterprise_id, the composite foreign keys
 * moved onto them) on a database that already holds rows: every row stays, and every foreign key keeps its
 * name, its deferral, its ON DELETE action and its tenant wall.
 */
describe('the sharding-ready migration on a database with rows', async () => {
  const database = await emptyDatabase();
  afterAll(() => database.close());
  const db = database.db;

  const before = loadMigrations().filter((migration) => migration.name < SHARDING_MIGRATION);
  const migrator = new Migrator({
    db,
    provider: {
      async getMigrations() {
        return Object.fromEntries(
          before.map(({ name, script }) => [name, { up: (trx) => database.execScript(trx, script) } satisfies Migration]),
        );
      },
    },
  });

  const ids = {
    a: '00000000-0000-4000-8000-00000000000a',
    b: '00000000-0000-4000-8000-00000000000b',
    entity: '10000000-0000-4000-8000-000000000001',
    unit: '10000000-0000-4000-8000-000000000002',
    scenario: '10000000-0000-4000-8000-000000000003',
    bra: '10000000-0000-4000-8000-000000000004',
    link: '10000000-0000-4000-8000-000000000005',
    snapshot: '10000000-0000-4000-8000-000000000006',
    keyControl: '10000000-0000-4000-8000-000000000007',
    subControl: '10000000-0000-4000-8000-000000000008',
    endpoint: '10000000-0000-4000-8000-000000000009',
    otherBra: '20000000-0000-4000-8000-000000000004',
  };

  async function counts(): Promise<Record<string, number>> {
    const tables = ['legal_entities', 'business_units', 'risk_scenarios', 'bras', 'bra_risk_scenarios', 'bra_ratings', 'bra_snapshots',
      'key_controls', 'sub_controls', 'bra_controls', 'mitigation_actions', 'webhook_endpoints', 'webhook_deliveries', 'event_outbox'];
    const result: Record<string, number> = {};
    for (const table of tables) {
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(db);
      result[table] = rows[0]!.n;
    }
    return result;
  }

  it('keeps every row and every foreign key (names, deferral, cascade, the tenant wall)', async () => {
    const { error } = await migrator.migrateToLatest();
    expect(error).toBeUndefined();
    const { a, b } = ids;
    await database.execScript(
      db,
      `insert into enterprises (id, name, country) values ('${a}', 'North Bank', 'GB'), ('${b}', 'South Bank', 'GB');
      insert into legal_entities (id, enterprise_id, name) values ('${ids.entity}', '${a}', 'North Ltd');
      insert into business_units (id, enterprise_id, legal_entity_id, name) values ('${ids.unit}', '${a}', '${ids.entity}', 'Retail');
      insert into risk_scenarios (id, enterprise_id, name, category) values ('${ids.scenario}', '${a}', 'Fraud', 'Operational');
      begin;
      insert into bras (id, enterprise_id, name, legal_entity_id, business_unit_id, period, assessor, snapshot_id)
        values ('${ids.bra}', '${a}', 'BRA 1', '${ids.entity}', '${ids.unit}', '2026', 'Ann', '${ids.snapshot}');
      insert into bra_snapshots (id, enterprise_id, bra_id, kind, content, methodology)
        values ('${ids.snapshot}', '${a}', '${ids.bra}', 'approved', '{}', '{}');
      commit;
      insert into bras (id, enterprise_id, name, legal_entity_id, period, assessor)
        values ('${ids.otherBra}', '${a}', 'BRA 2', '${ids.entity}', '2026', 'Ann');
      insert into bra_risk_scenarios (id, enterprise_id, bra_id, risk_scenario_id) values ('${ids.link}', '${a}', '${ids.bra}', '${ids.scenario}');
      insert into bra_ratings (enterprise_id, bra_id, bra_risk_scenario_id, rating_type, impact_score, likelihood_score, risk_score, risk_level)
        values ('${a}', '${ids.bra}', '${ids.link}', 'inherent', 3, 3, 9, 'Medium');
      insert into key_controls (id, enterprise_id, name) values ('${ids.keyControl}', '${a}', 'Access');
      insert into sub_controls (id, enterprise_id, key_control_id, name) values ('${ids.subControl}', '${a}', '${ids.keyControl}', 'Reviews');
      insert into bra_controls (enterprise_id, bra_id, sub_control_id, bra_risk_scenario_id) values ('${a}', '${ids.bra}', '${ids.subControl}', '${ids.link}');
      insert into mitigation_actions (enterprise_id, action, owner, priority, action_type, due_date, bra_id, bra_risk_scenario_id)
        values ('${a}', 'Train', 'Bob', 'high', 'preventive', '2027-01-01', '${ids.bra}', '${ids.link}');
      insert into webhook_endpoints (id, enterprise_id, url, event_types, secret) values ('${ids.endpoint}', '${a}', 'https://example.test/h', '{bra.approved}', 'whsec_x');
      insert into event_outbox (enterprise_id, type, body) values ('${a}', 'bra.approved', '{}');
      insert into webhook_deliveries (enterprise_id, endpoint_id, event_id, event_type, body, seq, next_attempt_at)
        values ('${a}', '${ids.endpoint}', gen_random_uuid(), 'bra.approved', '{}', 1, now());`,
    );
    const rowsBefore = await counts();
    // Before it, the check names what was not ready: primary keys on id alone, two unique keys without the tenant.
    const problemsBefore = await shardingProblems(db, 'public');
    expect(problemsBefore).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^bras: primary key bras_pkey PRIMARY KEY \(id\) lacks enterprise_id/),
        expect.stringMatching(/^event_outbox: primary key event_outbox_pkey PRIMARY KEY \(seq\) lacks enterprise_id/),
        expect.stringMatching(/^business_units: unique index business_units_name_key .* lacks enterprise_id/),
        expect.stringMatching(/^webhook_deliveries: unique constraint webhook_deliveries_event_key .* lacks enterprise_id/),
      ]),
    );
    // 18 primary keys on id, the outbox's on seq, two unique keys (more if tables were added before this migration).
    expect(problemsBefore.length).toBeGreaterThanOrEqual(21);

    // The sharding migration first, then whatever later migrations there are.
    expect((await migrateToLatest(database)).applied[0]).toBe(SHARDING_MIGRATION);
    expect(await counts()).toEqual(rowsBefore);
    expect(await shardingProblems(db, 'public')).toEqual([]);

    const { rows: keys } = await sql<{ name: string; definition: string }>`
      select conname as name, pg_get_constraintdef(oid) as definition from pg_constraint
      where conname in ('bras_pkey', 'bras_snapshot_fkey', 'webhook_deliveries_endpoint_fkey', 'bra_ratings_link_fkey', 'bras_enterprise_id_key')
      order by conname`.execute(db);
    expect(keys).toEqual([
      { name: 'bra_ratings_link_fkey', definition: 'FOREIGN KEY (enterprise_id, bra_id, bra_risk_scenario_id) REFERENCES bra_risk_scenarios(enterprise_id, bra_id, id)' },
      { name: 'bras_pkey', definition: 'PRIMARY KEY (id, enterprise_id)' },
      { name: 'bras_snapshot_fkey', definition: 'FOREIGN KEY (enterprise_id, snapshot_id) REFERENCES bra_snapshots(enterprise_id, id) DEFERRABLE INITIALLY DEFERRED' },
      { name: 'webhook_deliveries_endpoint_fkey', definition: 'FOREIGN KEY (enterprise_id, endpoint_id) REFERENCES webhook_endpoints(enterprise_id, id) ON DELETE CASCADE' },
    ]);

    // The tenant wall: a row of enterprise b cannot name a BRA of enterprise a.
    await expect(
      sql`insert into mitigation_actions (enterprise_id, action, owner, priority, action_type, due_date, bra_id)
          values (${b}, 'x', 'y', 'low', 'z', '2027-01-01', ${ids.bra})`.execute(db),
    ).rejects.toMatchObject({ code: '23503', constraint: 'mitigation_actions_bra_fkey' });
    // A link must still belong to the BRA the rating names.
    await expect(
      sql`insert into bra_ratings (enterprise_id, bra_id, bra_risk_scenario_id, rating_type, impact_score, likelihood_score, risk_score, risk_level)
          values (${a}, ${ids.otherBra}, ${ids.link}, 'residual', 1, 1, 1, 'Low')`.execute(db),
    ).rejects.toMatchObject({ code: '23503', constraint: 'bra_ratings_link_fkey' });
    // The same event twice to one endpoint is still refused by its key.
    await expect(
      sql`insert into webhook_deliveries (enterprise_id, endpoint_id, event_id, event_type, body, seq, next_attempt_at)
          select enterprise_id, endpoint_id, event_id, event_type, body, seq, now() from webhook_deliveries`.execute(db),
    ).rejects.toMatchObject({ code: '23505', constraint: 'webhook_deliveries_event_key' });
    // Deleting an endpoint still takes its deliveries with it.
    await sql`delete from webhook_endpoints where id = ${ids.endpoint}`.execute(db);
    expect((await counts()).webhook_deliveries).toBe(0);
  });
});
