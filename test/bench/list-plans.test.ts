import { CompiledQuery, sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { sessionHeaders } from '../support/api.js';
import { createTestContext } from '../support/app.js';
import { createBra, createBraWorld, createSubControl } from '../support/bras-factories.js';
import type { TestUser } from '../support/factories.js';

/**
 * Statements that scale with the page, not the tenant (issue 51): every list the API offers, with every
 * filter and every sort it takes, reaches the tenant's rows through an index. Each list operation of the
 * OpenAPI document is called once per query parameter (each enum value of a sort or filter, a sample of any
 * other), the statements it sends are recorded, and each is explained with sequential scans disabled: a
 * plan that still scans a tenant table (one with an enterprise_id column) sequentially has no index to use.
 * The planner's choice does not depend on the volume here: disabling sequential scans makes any index path
 * win, so a few rows tell what a tenant of millions would get.
 */

interface Recorded {
  sql: string;
  parameters: readonly unknown[];
}

/**
 * Records every read the driver sends while `recording` is on, with its bound values (the service's prepared
 * statements bind theirs only there). Writes, such as a session's last use, are not lists.
 */
function recordReads() {
  const recorder = { recording: false, reads: [] as Recorded[] };
  const query = pg.Client.prototype.query as (this: pg.Client, ...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const [first, second] = args;
    const text = typeof first === 'string' ? first : (first as { text?: string } | undefined)?.text;
    const values = Array.isArray(second) ? second : ((first as { values?: unknown[] } | undefined)?.values ?? []);
    if (recorder.recording && text !== undefined && /^\s*(select|with)\b/i.test(text) && !/\b(insert|update|delete)\b/i.test(text)) {
      recorder.reads.push({ sql: text, parameters: values });
    }
    return query.apply(this, args);
  } as typeof pg.Client.prototype.query;
  afterAll(() => {
    pg.Client.prototype.query = query as typeof pg.Client.prototype.query;
  });
  return recorder;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: { type?: string | string[]; enum?: unknown[]; format?: string; minimum?: number; anyOf?: unknown[]; items?: { enum?: unknown[] } };
}

/** The values a query parameter is tried with: each of an enum's, else one sample of its type. */
function samplesOf(parameter: Parameter): string[] {
  const schema = parameter.schema ?? {};
  const values = schema.enum ?? schema.items?.enum;
  if (values !== undefined) return values.map(String);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'boolean') return ['true', 'false'];
  if (type === 'integer' || type === 'number') return [String(Math.max(schema.minimum ?? 1, 1))];
  if (schema.format === 'uuid') return ['7d3a2b9c-5e4f-4a0b-9c8d-3e4f5a6b7c8d'];
  if (schema.format === 'date') return ['2026-06-30'];
  if (schema.format === 'date-time') return ['2026-06-30T00:00:00.000Z'];
  return ['a'];
}

describe('every list, filter and sort reaches a tenant table through an index (EXPLAIN, sequential scans off)', async () => {
  const recorder = recordReads();
  const ctx = await createTestContext();
  const world = await createBraWorld(ctx);
  const headersOf = sessionHeaders(ctx);

  const { rows: tenantTables } = await sql<{ table_name: string }>`
    select table_name from information_schema.columns
     where table_schema = current_schema() and column_name = 'enterprise_id'`.execute(ctx.db);
  const tenant = new Set(tenantTables.map((row) => row.table_name));

  const document = (await ctx.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json() as {
    paths: Record<string, Record<string, { operationId?: string; parameters?: Parameter[]; responses?: Record<string, { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> }> }>>;
  };
  /** The ids a list's path names, from the world (an id not here: the list is not checked). */
  const bra = await createBra(ctx, { enterpriseId: world.enterprise.id, legalEntityId: world.entity.id, status: 'in_progress' });
  const { subControl } = await createSubControl(ctx, world.enterprise.id, { tod: 'A', toe: '2', effectiveness: 'Highly Effective' });
  // A second one, so that the sub-control list's first page of one row has a next page.
  await createSubControl(ctx, world.enterprise.id, {});
  const ids: Record<string, string> = { bra_id: bra.id, sub_control_id: subControl.id, enterprise_id: world.enterprise.id, legal_entity_id: world.entity.id, user_id: world.assessor.id };
  /** The lists: GET operations whose answer's data is an array, with the ids their paths name. */
  const lists = Object.entries(document.paths).flatMap(([template, operations]) => {
    const get = operations['get'];
    const data = get?.responses?.['200']?.content?.['application/json']?.schema?.properties?.['data'] as { type?: string } | undefined;
    const path = template.replace(/\{(\w+)\}/g, (whole, name: string) => ids[name] ?? whole);
    return get !== undefined && data?.type === 'array' && !path.includes('{') ? [{ path, operationId: get.operationId ?? path, parameters: (get.parameters ?? []).filter((p) => p.in === 'query') }] : [];
  });

  /** An id parameter takes the world's record of its name (a filter on an unknown id is refused, not listed). */
  const idsByParameter: Record<string, string> = { ...ids, business_unit_id: world.unit.id, key_control_id: subControl.key_control_id, record_id: bra.id, owner_user_id: world.assessor.id };
  const sampleFor = (parameter: Parameter): string[] => {
    const id = idsByParameter[parameter.name];
    return id !== undefined ? [id] : samplesOf(parameter);
  };

  /**
   * Lists that read across tenants by design, for a super admin: the platform's alerts (each enterprise's and
   * the platform's own). They are paged like the others; their count is of the platform, not of a tenant.
   */
  const PLATFORM_WIDE = new Set(['admin.alerts.list']);

  /** Whose lists they are: each of these the operation answers 200 (a scoped assessor, a client admin, a super admin). */
  const callers: TestUser[] = [world.assessor, world.admin, world.superAdmin];

  async function readsOf(url: string): Promise<Recorded[] | null> {
    let answered: Recorded[] | null = null;
    for (const caller of callers) {
      const headers = await headersOf(caller);
      await ctx.app.inject({ method: 'GET', url: '/api/v1/me', headers });
      recorder.reads = [];
      recorder.recording = true;
      const response = await ctx.app.inject({ method: 'GET', url, headers }).finally(() => {
        recorder.recording = false;
      });
      if (response.statusCode === 200) answered = [...(answered ?? []), ...recorder.reads];
    }
    return answered;
  }

  /** A bitmap scan one of whose index scans has no condition: the whole index read. */
  const bitmapWalksAnIndex = (node: PlanNode): boolean =>
    (node.Plans ?? []).some((child) => (child['Node Type'] === 'Bitmap Index Scan' && child['Index Cond'] === undefined) || bitmapWalksAnIndex(child));

  /**
   * The tenant tables a statement reads without bounding the scan by an index condition: a sequential scan,
   * or an index scan with no Index Cond (the whole index walked, as bad as the table).
   */
  async function unboundedScansOf(statement: Recorded): Promise<string[]> {
    return ctx.db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      const explained = await trx.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(CompiledQuery.raw(`explain (format json) ${statement.sql}`, [...statement.parameters]));
      const found: string[] = [];
      const walk = (node: PlanNode) => {
        const table = node['Relation Name'];
        if (table !== undefined && tenant.has(table)) {
          const type = node['Node Type'];
          const walksIndex = (type === 'Index Scan' || type === 'Index Only Scan') && node['Index Cond'] === undefined;
          if (type === 'Seq Scan' || walksIndex || (type === 'Bitmap Heap Scan' && bitmapWalksAnIndex(node))) found.push(`${type} on ${table}`);
        }
        for (const child of node.Plans ?? []) walk(child);
      };
      walk(explained.rows[0]!['QUERY PLAN'][0].Plan);
      return found;
    });
  }

  it('the document offers lists to check', () => {
    expect(lists.length).toBeGreaterThanOrEqual(15);
    expect(tenant.has('bras') && tenant.has('mitigation_actions')).toBe(true);
  });

  it('the check tells a read bounded by the tenant key from one that walks the table or a whole index', async () => {
    expect(await unboundedScansOf({ sql: 'select id from bras where name = $1', parameters: ['x'] })).not.toEqual([]);
    expect(await unboundedScansOf({ sql: 'select id from bras order by created_at desc limit 25', parameters: [] })).not.toEqual([]);
    expect(await unboundedScansOf({ sql: 'select id from bras where enterprise_id = $1 order by created_at desc limit 25', parameters: [world.enterprise.id] })).toEqual([]);
  });

  it('no list, filter or sort scans a tenant table sequentially', async () => {
    const findings: string[] = [];
    let checked = 0;
    for (const list of lists.filter((candidate) => !PLATFORM_WIDE.has(candidate.operationId))) {
      // What the list requires goes with every call; then each other parameter, one at a time.
      const required = list.parameters.filter((parameter) => parameter.required === true);
      const base = `${list.path}?${required.map((parameter) => `${parameter.name}=${encodeURIComponent(sampleFor(parameter)[0]!)}`).join('&')}`;
      // The first page and, where paged, a deep one (an offset the index must reach, not a sort of the whole tenant).
      const urls = [base, ...(list.parameters.some((parameter) => parameter.name === 'page') ? [`${base}&page=40&page_size=25`] : [])];
      for (const parameter of list.parameters) {
        if (['page', 'page_size'].includes(parameter.name) || parameter.required === true) continue;
        if (parameter.name === 'cursor') {
          // A keyset list's deep page: the cursor its first page of one row gives (a made-up one is refused).
          const first = await ctx.app.inject({ method: 'GET', url: `${base}&limit=1`, headers: await headersOf(world.admin) });
          const next = (first.json() as { next_cursor?: string | null }).next_cursor;
          if (typeof next === 'string') urls.push(`${base}&limit=1&cursor=${encodeURIComponent(next)}`);
          else findings.push(`${list.operationId} ${base}&limit=1: no next_cursor to follow (${first.statusCode})`);
          continue;
        }
        for (const value of sampleFor(parameter)) urls.push(`${base}&${parameter.name}=${encodeURIComponent(value)}`);
      }
      for (const url of urls) {
        const reads = await readsOf(url);
        if (reads === null) {
          // A list every caller reads: each of its parameters' samples is valid, so all of them answer.
          findings.push(`${list.operationId} ${url}: no caller was answered 200`);
          continue;
        }
        for (const statement of reads) {
          checked += 1;
          const scanned = await unboundedScansOf(statement).catch((error: unknown) => { throw new Error(`${String(error)} :: ${statement.sql} :: ${JSON.stringify(statement.parameters)}`); });
          if (scanned.length > 0) findings.push(`${list.operationId} ${url}: ${[...new Set(scanned)].join(', ')} :: ${statement.sql.slice(0, 300)}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
    console.info(`list plans: ${lists.length} lists, ${checked} statements explained`);
    expect(findings, findings.join('\n\n')).toEqual([]);
  });
});
