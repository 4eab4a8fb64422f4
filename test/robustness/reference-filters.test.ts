import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { API_PREFIX } from '../../src/platform/http/api-prefix.js';
import { createTestContext } from '../support/app.js';
import { createRiskScenario } from '../support/bras-factories.js';
import { createBusinessUnit } from '../support/factories.js';
import { signingKeyEnv } from '../support/governance-factories.js';
import { createMatrixWorld } from './matrix-world.js';
import { routeRecorder, type RegisteredRoute } from './route-table.js';

/**
 * Filters that hold a value recorded in the rows rather than name a live record: the audit trail keeps the
 * entries of users and records that are gone, and the appetite history the entries of a deleted override,
 * so these list nothing for an id they never saw, whoever's it is (an empty page, or an export with no
 * row). Every other uuid filter names a record of the caller's enterprise.
 */
const RECORDED_VALUES = new Set([
  'GET /audit user_id',
  'GET /audit entity_id',
  'GET /audit/export user_id',
  'GET /audit/export entity_id',
  'GET /governance/risk-appetite/history risk_appetite_id',
]);

/** Required query parameters other than the filter under test, with a value the caller's own data answers. */
const REQUIRED_ALONGSIDE: Record<string, string> = { to: 'current', record_type: 'bra' };

/** The uuid query parameters of a GET route, read from its schema. */
function uuidFilters(route: RegisteredRoute): string[] {
  const query = route.schema.querystring as { properties?: Record<string, unknown> } | undefined;
  return Object.entries(query?.properties ?? {})
    .filter(([, schema]) => JSON.stringify(schema).includes('"format":"uuid"'))
    .map(([name]) => name);
}

function requiredAlongside(route: RegisteredRoute, filter: string): Record<string, string> {
  const required = (route.schema.querystring as { required?: string[] } | undefined)?.required ?? [];
  return Object.fromEntries(required.filter((name) => name !== filter && REQUIRED_ALONGSIDE[name] !== undefined).map((name) => [name, REQUIRED_ALONGSIDE[name]!]));
}

/**
 * Issue 44.6: a list filter naming a record of another enterprise answers exactly as the same filter naming
 * an id nobody has (D10.1: another enterprise's records do not exist for the caller), on every list: 400
 * INVALID_REFERENCE naming the filter. The lists are read from the registered route table, so a new list's
 * filter is covered the day it is declared.
 */
describe('reference filters: another enterprise\'s id answers as an unknown id, on every list', async () => {
  const recorder = routeRecorder();
  const ctx = await createTestContext({ onRoute: recorder.onRoute, env: signingKeyEnv() });
  const world = await createMatrixWorld(ctx);
  const ownEnterpriseId = world.callers.admin.enterpriseId!;
  const foreignUnit = await createBusinessUnit(ctx, world.foreignIds.enterprise_id!, world.foreignIds.legal_entity_id!);
  const ownScenario = await createRiskScenario(ctx, ownEnterpriseId);
  /** Another enterprise's record under each filter's name. */
  const foreign: Record<string, string> = {
    ...world.foreignIds,
    business_unit_id: foreignUnit.id,
    from: world.foreignIds.snapshot_id!,
    entity_id: world.foreignIds.bra_id!,
  };
  /** The caller's own records for path parameters, so that only the filter differs. */
  const own: Record<string, string> = { ...world.unassignedIds, id: ownScenario.id };
  const lists = recorder.routes.filter((route) => route.method === 'GET' && uuidFilters(route).length > 0);

  it('the route table has lists with uuid filters (the actions list among them)', () => {
    expect(lists.map((route) => route.key)).toContain('GET /mitigation-actions');
    expect(lists.length).toBeGreaterThan(8);
  });

  it('every uuid filter: another enterprise\'s id and an unknown id answer alike, 400 INVALID_REFERENCE naming it', async () => {
    const failures: string[] = [];
    const ask = async (route: RegisteredRoute, filter: string, value: string) => {
      const path = route.path.replace(/:([a-z_]+)/g, (_, name: string) => own[name] ?? randomUUID());
      const response = await ctx.app.inject({
        method: 'GET',
        url: `${API_PREFIX}${path}?${new URLSearchParams({ ...requiredAlongside(route, filter), [filter]: value }).toString()}`,
        headers: { authorization: `Bearer ${world.tokens.admin}` },
      });
      const body = String(response.headers['content-type']).includes('json') ? (response.json() as Record<string, unknown>) : {};
      return { status: response.statusCode, code: body['code'], field: (body['details'] as { field?: unknown } | undefined)?.field, data: body['data'], text: response.body };
    };
    let checked = 0;
    for (const route of lists) {
      for (const filter of uuidFilters(route)) {
        const value = foreign[filter];
        if (value === undefined) {
          failures.push(`${route.key} ${filter}: no record of another enterprise named for it in this suite`);
          continue;
        }
        const [other, unknown] = [await ask(route, filter, value), await ask(route, filter, randomUUID())];
        checked += 1;
        const cell = `${route.key}?${filter}`;
        if (other.status !== unknown.status || other.code !== unknown.code) {
          failures.push(`${cell}: another enterprise's id ${other.status} ${String(other.code)}, an unknown id ${unknown.status} ${String(unknown.code)}`);
        }
        if (RECORDED_VALUES.has(`${route.key} ${filter}`)) {
          const empty = other.data === undefined ? other.text === unknown.text || other.text.split('\n').filter((line) => line !== '').length <= 1 : JSON.stringify(other.data) === '[]';
          if (other.status !== 200 || !empty) failures.push(`${cell}: a recorded value of another enterprise answers ${other.status}, not an empty list`);
        } else if (other.status !== 400 || other.code !== 'INVALID_REFERENCE' || other.field !== filter) {
          failures.push(`${cell}: another enterprise's id answers ${other.status} ${String(other.code)} (field ${String(other.field)}), not 400 INVALID_REFERENCE naming ${filter}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(20);
  });
});
