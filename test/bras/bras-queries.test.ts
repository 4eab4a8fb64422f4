import { sql, type KyselyPlugin, type PluginTransformQueryArgs, type PluginTransformResultArgs, type QueryResult, type RootOperationNode, type UnknownRow } from 'kysely';
import { describe, expect, it } from 'vitest';
import { assignedScope } from '../../src/platform/auth/policies.js';
import type { Principal } from '../../src/platform/auth/principal.js';
import { braListQueries, type BraFilter } from '../../src/modules/bras/bras.repository.js';
import { sessionHeaders } from '../support/api.js';
import { createTestContext } from '../support/app.js';
import { addScenarioLink, createBra, createBraWorld, createSubControl, linkControl, rateBoth } from '../support/bras-factories.js';
import { freshDatabase } from '../support/database.js';

/** Records every statement the app runs (as its operation tree), so that a request's statements can be counted. */
class StatementRecorder implements KyselyPlugin {
  statements: string[] = [];
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.statements.push(JSON.stringify(args.node));
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

describe('get-BRA is a fixed number of statements whatever the number of scenarios and controls (no N+1)', async () => {
  const recorder = new StatementRecorder();
  const database = await freshDatabase();
  const ctx = await createTestContext({ database: { ...database, db: database.db.withPlugin(recorder) } });
  const w = await createBraWorld(ctx);
  const headersOf = sessionHeaders(ctx);

  async function braWith(scenarios: number, controls: number) {
    const bra = await createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: w.entity.id, status: 'in_progress' });
    for (let i = 0; i < scenarios; i += 1) await rateBoth(ctx, await addScenarioLink(ctx, bra, i % 3 !== 2), [4, 4], [2, 3]);
    for (let i = 0; i < controls; i += 1) await linkControl(ctx, bra, (await createSubControl(ctx, w.enterprise.id, { tod: 'A', toe: '2', effectiveness: 'Highly Effective' })).subControl.id);
    return bra;
  }

  /** The statements of one request that touch BRA or appetite tables (authentication's are cached and not the point). */
  async function statementsOf(url: string): Promise<number> {
    const headers = await headersOf(w.admin);
    await ctx.app.inject({ method: 'GET', url: '/api/v1/me', headers });
    recorder.statements = [];
    const response = await ctx.app.inject({ method: 'GET', url, headers });
    expect(response.statusCode, response.body).toBe(200);
    return recorder.statements.filter((statement) => /bra|risk_appetite/.test(statement)).length;
  }

  it('one scenario and one control, or nine scenarios and seven controls: the same statements', async () => {
    const small = await braWith(1, 1);
    const large = await braWith(9, 7);
    const smallCount = await statementsOf(`/api/v1/bras/${small.id}`);
    const largeCount = await statementsOf(`/api/v1/bras/${large.id}`);
    expect(largeCount).toBe(smallCount);
    // The BRA row, the appetite, then the BRA with names, scenarios, controls and summary counts; the
    // people it names (one join), its comment count with its latest verdicts (one statement), its moves
    // from the trail (one statement, issue 47); its scenarios' risk acceptances in force (one statement, issue 48).
    expect(smallCount).toBeLessThanOrEqual(10);
    const body = (await ctx.app.inject({ method: 'GET', url: `/api/v1/bras/${large.id}`, headers: await headersOf(w.admin) })).json().data;
    expect(body.scenarios).toHaveLength(9);
    expect(body.controls).toHaveLength(7);
    expect(body.summary).toMatchObject({ total_scenarios: 6, assessed_scenarios: 6 });
    expect(await statementsOf(`/api/v1/bras/${large.id}/scenarios`)).toBe(await statementsOf(`/api/v1/bras/${small.id}/scenarios`));
    // An approved BRA adds one: the threshold its approval snapshot pinned.
    const approved = await ctx.app.inject({ method: 'POST', url: `/api/v1/bras/${large.id}/approve`, headers: await headersOf(w.admin), payload: {} });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(await statementsOf(`/api/v1/bras/${large.id}`)).toBe(smallCount + 1);
    expect(await statementsOf(`/api/v1/bras/${large.id}/controls`)).toBe(await statementsOf(`/api/v1/bras/${small.id}/controls`));
  });
});

describe('list filters are served by the bras indexes (EXPLAIN on a few thousand rows)', async () => {
  const database = await freshDatabase();
  const db = database.db;
  // 20 enterprises of 250 BRAs each (5,000 rows), over 3 legal entities with 2 units each and all five statuses.
  await sql`
    with e as (
      insert into enterprises (name, country) select 'Bench ' || g, 'GB' from generate_series(1, 20) g returning id
    ), le as (
      insert into legal_entities (enterprise_id, name) select e.id, 'Entity ' || g from e, generate_series(1, 3) g returning id, enterprise_id
    ), bu as (
      insert into business_units (enterprise_id, legal_entity_id, name) select le.enterprise_id, le.id, 'Unit ' || g from le, generate_series(1, 2) g
      returning id, enterprise_id, legal_entity_id
    )
    insert into bras (enterprise_id, name, legal_entity_id, business_unit_id, status, period, assessor, created_at)
    select bu.enterprise_id, 'BRA ' || bu.id || ' ' || g, bu.legal_entity_id, bu.id,
           (array['draft', 'in_progress', 'under_review', 'approved', 'cancelled'])[1 + g % 5],
           'FY2026', 'Bench', now() - (g || ' minutes')::interval
    from bu, generate_series(1, 42) g`.execute(db);
  await sql`vacuum analyze bras`.execute(db);
  await sql`analyze legal_entities`.execute(db);
  await sql`analyze business_units`.execute(db);
  const target = await db.selectFrom('bras').select(['enterprise_id', 'legal_entity_id', 'business_unit_id']).limit(1).executeTakeFirstOrThrow();
  const total = await db.selectFrom('bras').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();

  const principal = (role: Principal['role'], assignments: Principal['entityAssignments'] = []): Principal => ({
    userId: 'u',
    email: 'u@example.test',
    fullName: 'U',
    role,
    enterpriseId: target.enterprise_id,
    sessionId: null,
    entityAssignments: assignments,
  });
  const plans = async (caller: Principal, filter: BraFilter) => {
    const queries = braListQueries(db, { enterpriseId: target.enterprise_id, filter, scope: assignedScope(caller, 'b.legal_entity_id', 'b.business_unit_id') }, { limit: 25, offset: 0 });
    const explain = async (query: { explain(): Promise<Record<string, unknown>[]> }) =>
      (await query.explain()).map((row) => String(Object.values(row)[0])).join('\n');
    return { count: await explain(queries.count), page: await explain(queries.page) };
  };

  it.each([
    ['no filter', 'admin', {}],
    ['status', 'admin', { status: 'approved' }],
    ['legal entity', 'admin', { legal_entity_id: 'entity' }],
    ['business unit', 'admin', { business_unit_id: 'unit' }],
    ['all three', 'admin', { status: 'draft', legal_entity_id: 'entity', business_unit_id: 'unit' }],
    ['assessor scope', 'assessor', {}],
    ['assessor scope and status', 'assessor', { status: 'in_progress' }],
    ['unit assessor scope', 'unit assessor', {}],
  ] as const)('%s: count and page use an index of bras, never a sequential scan', async (_name, role, spec) => {
    expect(Number(total.n)).toBeGreaterThanOrEqual(5000);
    const filter: BraFilter = {
      ...('status' in spec ? { status: spec.status } : {}),
      ...('legal_entity_id' in spec ? { legal_entity_id: target.legal_entity_id } : {}),
      ...('business_unit_id' in spec ? { business_unit_id: target.business_unit_id! } : {}),
    };
    const caller =
      role === 'admin'
        ? principal('admin')
        : principal('assessor', [{ legal_entity_id: target.legal_entity_id, business_unit_id: role === 'unit assessor' ? target.business_unit_id : null }]);
    const { count, page } = await plans(caller, filter);
    for (const plan of [count, page]) {
      expect(plan, plan).not.toMatch(/Seq Scan on bras/);
      expect(plan, plan).toMatch(/Index (Only )?Scan (Backward )?using bras_\w+|Bitmap Index Scan on bras_\w+/);
    }
  });
});
