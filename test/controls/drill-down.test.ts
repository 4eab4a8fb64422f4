import { describe, expect, it } from 'vitest';
import { DEMO_MEMBERS } from '../../src/demo/demo-data.js';
import { runDemo } from '../../src/demo/run-demo.js';
import { createTestContext } from '../support/app.js';
import { freshDatabase } from '../support/database.js';
import { bearer } from '../support/factories.js';

type Cell = { count: number; filter: Record<string, string | boolean> };
type HeatMap = { data: Record<string, Record<string, Cell>>; total_assessed: number };
type SubControl = { id: string; tod: string | null; toe: string | null; total_effectiveness: string | null };

const queryOf = (filter: Record<string, string | boolean | undefined>) =>
  new URLSearchParams(Object.entries(filter).flatMap(([key, value]): Array<[string, string]> => (value === undefined ? [] : [[key, String(value)]]))).toString();

const COUNT_FILTERS: Record<string, Record<string, string | boolean>> = {
  highly_effective: { total_effectiveness: 'Highly Effective' },
  effective: { total_effectiveness: 'Effective' },
  moderately_effective: { total_effectiveness: 'Moderately Effective' },
  less_effective: { total_effectiveness: 'Less Effective' },
  not_effective: { total_effectiveness: 'Not Effective' },
  not_assessed: { not_assessed: true },
};

/**
 * Drill-down on the demo library: every heat-map cell's filter, and every effectiveness count's filter,
 * lists exactly the sub-controls counted there, for the whole library and for each entity and BRA scope,
 * as the client admin and as an assessor limited to their assignments.
 */
describe('drill-down from the heat map and the effectiveness counts', async () => {
  const database = await freshDatabase();
  const ctx = await createTestContext({ database });
  await runDemo(database, ctx.config);
  const signIn = async (role: 'admin' | 'assessor') => {
    const member = DEMO_MEMBERS.find((candidate) => candidate.role === role)!;
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=password',
      headers: { apikey: ctx.secrets.anonKey, 'content-type': 'application/json' },
      payload: { email: member.email, password: member.password },
    });
    return bearer(response.json().access_token);
  };
  const admin = await signIn('admin');
  const assessor = await signIn('assessor');
  const get = async (headers: Record<string, string>, url: string) => {
    const response = await ctx.app.inject({ method: 'GET', url: `/api/v1${url}`, headers });
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    return response.json().data;
  };

  const bras = (await get(admin, '/bras?page_size=100')) as Array<{ id: string; legal_entity_id: string }>;
  const scopes: Array<Record<string, string | undefined>> = [
    {},
    ...[...new Set(bras.map((bra) => bra.legal_entity_id))].map((id) => ({ legal_entity_id: id })),
    ...bras.map((bra) => ({ bra_id: bra.id })),
  ];

  async function checkScope(headers: Record<string, string>, scope: Record<string, string | undefined>) {
    const map = (await get(headers, `/controls/heat-map?${queryOf(scope)}`)) as HeatMap;
    const seen = new Set<string>();
    for (const [tod, row] of Object.entries(map.data)) {
      for (const [toe, cell] of Object.entries(row)) {
        expect(cell.filter).toEqual({ tod, toe, ...Object.fromEntries(Object.entries(scope).filter(([, v]) => v !== undefined)) });
        const listed = (await get(headers, `/controls/sub-controls?${queryOf(cell.filter)}`)) as SubControl[];
        expect(listed.length, `cell ${tod}${toe} of ${queryOf(scope)}`).toBe(cell.count);
        for (const sub of listed) {
          expect([sub.tod, sub.toe]).toEqual([tod, toe]);
          seen.add(sub.id);
        }
      }
    }
    expect(seen.size).toBe(map.total_assessed);

    const summary = (await get(headers, `/controls/effectiveness?${queryOf(scope)}`)) as Record<string, number>;
    let listedTotal = 0;
    for (const [count, filter] of Object.entries(COUNT_FILTERS)) {
      const listed = (await get(headers, `/controls/sub-controls?${queryOf({ ...scope, ...filter })}`)) as SubControl[];
      expect(listed.length, `${count} of ${queryOf(scope)}`).toBe(summary[count]);
      listedTotal += listed.length;
    }
    expect(listedTotal).toBe(summary.total);
    return map.total_assessed;
  }

  it('every cell and every count of the whole library, of each entity and of each BRA lists exactly its sub-controls', async () => {
    expect(bras.length).toBeGreaterThan(0);
    let assessedInBraScopes = 0;
    for (const scope of scopes) {
      const assessed = await checkScope(admin, scope);
      if (scope.bra_id !== undefined) assessedInBraScopes += assessed;
    }
    // The demo links tested controls to BRAs, so the BRA scopes are not all empty.
    expect(assessedInBraScopes).toBeGreaterThan(0);
  });

  it("an assessor's drill-down holds for the entities and BRAs they are assigned to, and an unassigned BRA is 403", async () => {
    const visible = (await get(assessor, '/bras?page_size=100')) as Array<{ id: string; legal_entity_id: string }>;
    expect(visible.length).toBeGreaterThan(0);
    for (const bra of visible) {
      await checkScope(assessor, { bra_id: bra.id });
      await checkScope(assessor, { legal_entity_id: bra.legal_entity_id });
    }
    const hidden = bras.find((bra) => !visible.some((mine) => mine.id === bra.id));
    expect(hidden, 'the demo has a BRA outside the assessor\'s assignments').toBeDefined();
    for (const url of [`/controls/sub-controls?bra_id=${hidden!.id}`, `/controls/heat-map?bra_id=${hidden!.id}`]) {
      const response = await ctx.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: assessor });
      expect(response.statusCode, url).toBe(403);
    }
  });

  it('a bra_id that is not a BRA of the enterprise, or of another entity than the one named, is 400 INVALID_REFERENCE', async () => {
    const [first] = bras;
    const otherEntity = bras.find((bra) => bra.legal_entity_id !== first!.legal_entity_id);
    expect(otherEntity, 'the demo has BRAs in two entities').toBeDefined();
    const urls = [
      '/controls/sub-controls?bra_id=00000000-0000-4000-8000-000000000000',
      '/controls/effectiveness?bra_id=00000000-0000-4000-8000-000000000000',
      `/controls/heat-map?bra_id=${first!.id}&legal_entity_id=${otherEntity!.legal_entity_id}`,
    ];
    for (const url of urls) {
      const response = await ctx.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: admin });
      expect(response.statusCode, url).toBe(400);
      expect(response.json()).toMatchObject({ code: 'INVALID_REFERENCE', details: { field: 'bra_id' } });
    }
  });
});
