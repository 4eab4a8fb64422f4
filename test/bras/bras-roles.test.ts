import { describe, expect, it } from 'vitest';
import { sessionHeaders } from '../support/api.js';
import { createTestContext } from '../support/app.js';
import { addScenarioLink, createBra, createBraWorld, createRiskScenario, createSubControl } from '../support/bras-factories.js';
import { assignEntity, createUser, type TestUser } from '../support/factories.js';
import { RISK_BANDS } from '../../src/modules/bras/risk-rating.js';

type Status = 'draft' | 'in_progress' | 'under_review';
type Kind = 'read' | 'edit' | 'approver';

/**
 * D5 and D10.1 as a matrix: every BRA endpoint, called by every kind of caller, each on a BRA of its own.
 * read: client admins and assigned assessors and reviewers; edit: client admins and the creating
 * assessor; approver: client admins only. Unassigned → 403, super admins → 403, another enterprise → 404.
 */
describe('who may call each BRA endpoint (D5, D10.1)', async () => {
  const ctx = await createTestContext();
  const w = await createBraWorld(ctx);
  const colleague = await createUser(ctx, { role: 'assessor', enterpriseId: w.enterprise.id });
  await assignEntity(ctx, colleague, w.entity.id);
  const headersOf = sessionHeaders(ctx);

  const callers: Array<[string, TestUser]> = [
    ['client admin', w.admin],
    ['creating assessor', w.assessor],
    ['other assigned assessor', colleague],
    ['unassigned assessor', w.outsideAssessor],
    ['assigned reviewer', w.reviewer],
    ['unassigned reviewer', w.outsideReviewer],
    ['super admin', w.superAdmin],
    ['admin of another enterprise', w.otherAdmin],
  ];
  const EXPECTED: Record<Kind, number[]> = {
    read: [200, 200, 200, 403, 200, 403, 403, 404],
    edit: [200, 200, 403, 403, 403, 403, 403, 404],
    approver: [200, 403, 403, 403, 403, 403, 403, 404],
  };

  async function setUp(status: Status) {
    const bra = await createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: w.entity.id, createdBy: w.assessor.id, status });
    const link = await addScenarioLink(ctx, bra);
    return { bra, link };
  }

  /** A snapshot as takeSnapshot writes it: the get-BRA data and the methodology. */
  async function snapshotOf(braId: string) {
    const detail = (await ctx.app.inject({ method: 'GET', url: `/api/v1/bras/${braId}`, headers: await headersOf(w.admin) })).json().data;
    const appetite = await ctx.db.selectFrom('risk_appetites').selectAll().where('enterprise_id', '=', w.enterprise.id).executeTakeFirstOrThrow();
    const methodology = { risk_bands: RISK_BANDS, appetite: { id: appetite.id, risk_level: appetite.risk_level, threshold_value: appetite.threshold_value, legal_entity_id: null, business_unit_id: null } };
    return ctx.db
      .insertInto('bra_snapshots')
      .values({ enterprise_id: w.enterprise.id, bra_id: braId, kind: 'created', content: JSON.stringify(detail), methodology: JSON.stringify(methodology) })
      .returning('id')
      .executeTakeFirstOrThrow();
  }

  type Endpoint = [name: string, kind: Kind, status: Status, method: 'GET' | 'POST' | 'PATCH', request: (s: Awaited<ReturnType<typeof setUp>>) => Promise<[string, unknown?]>];
  const endpoints: Endpoint[] = [
    ['bras.get', 'read', 'draft', 'GET', async ({ bra }) => [`/bras/${bra.id}`]],
    ['bras.scenario.list', 'read', 'draft', 'GET', async ({ bra }) => [`/bras/${bra.id}/scenarios`]],
    ['bras.rating.list', 'read', 'draft', 'GET', async ({ bra }) => [`/bras/${bra.id}/ratings?history=true`]],
    ['bras.control.list', 'read', 'draft', 'GET', async ({ bra }) => [`/bras/${bra.id}/controls`]],
    ['bras.snapshot.list', 'read', 'draft', 'GET', async ({ bra }) => [`/bras/${bra.id}/snapshots`]],
    ['bras.snapshot.get', 'read', 'draft', 'GET', async ({ bra }) => [`/bras/${bra.id}/snapshots/${(await snapshotOf(bra.id)).id}`]],
    ['bras.update', 'edit', 'draft', 'PATCH', async ({ bra }) => [`/bras/${bra.id}`, { period: 'H2 2026' }]],
    ['bras.scenario.add', 'edit', 'draft', 'POST', async ({ bra }) => [`/bras/${bra.id}/scenarios`, { risk_scenario_id: (await createRiskScenario(ctx, w.enterprise.id)).id }]],
    ['bras.scenario.update', 'edit', 'in_progress', 'PATCH', async ({ bra, link }) => [`/bras/${bra.id}/scenarios/${link.id}`, { included: false }]],
    ['bras.rating.create', 'edit', 'in_progress', 'POST', async ({ bra, link }) => [`/bras/${bra.id}/ratings`, { bra_risk_scenario_id: link.id, rating_type: 'residual', impact_score: 2, likelihood_score: 2 }]],
    ['bras.control.link', 'edit', 'draft', 'POST', async ({ bra }) => [`/bras/${bra.id}/controls`, { sub_control_id: (await createSubControl(ctx, w.enterprise.id)).subControl.id }]],
    ['bras.submit', 'edit', 'in_progress', 'POST', async ({ bra }) => [`/bras/${bra.id}/submit`, {}]],
    ['bras.return', 'approver', 'under_review', 'POST', async ({ bra }) => [`/bras/${bra.id}/return`, {}]],
    ['bras.approve', 'approver', 'in_progress', 'POST', async ({ bra, link }) => {
      await ctx.db.updateTable('bra_risk_scenarios').set({ included: false }).where('id', '=', link.id).execute();
      return [`/bras/${bra.id}/approve`, { final_comment: 'ok' }];
    }],
    ['bras.cancel', 'approver', 'draft', 'POST', async ({ bra }) => [`/bras/${bra.id}/cancel`, {}]],
  ];

  it.each(endpoints)('%s (%s)', async (_operation, kind, status, method, request) => {
    const outcomes: string[] = [];
    const wanted: string[] = [];
    for (const [index, [who, user]] of callers.entries()) {
      const [url, payload] = await request(await setUp(status));
      const response = await ctx.app.inject({ method, url: `/api/v1${url}`, headers: await headersOf(user), ...(payload !== undefined ? { payload: payload as object } : {}) });
      const expected = EXPECTED[kind][index]!;
      // Creating POSTs answer 201 (D2.4); the matrix is about who, so any 2xx counts as allowed.
      const got = response.statusCode >= 200 && response.statusCode < 300 ? 200 : response.statusCode;
      outcomes.push(`${who}: ${got}${got === expected ? '' : ` ${response.body.slice(0, 120)}`}`);
      wanted.push(`${who}: ${expected}`);
    }
    expect(outcomes).toEqual(wanted);
  });

  it('GET /bras: every member role may list (scoped), super admins may not', async () => {
    for (const [who, user] of callers) {
      const response = await ctx.app.inject({ method: 'GET', url: '/api/v1/bras', headers: await headersOf(user) });
      expect(response.statusCode, who).toBe(user.role === 'super_admin' ? 403 : 200);
    }
  });

  it('POST /bras: client admins and assigned assessors; reviewers and super admins 403', async () => {
    const expected: Record<string, number> = {
      'client admin': 201,
      'creating assessor': 201,
      'other assigned assessor': 201,
      'unassigned assessor': 403,
      'assigned reviewer': 403,
      'unassigned reviewer': 403,
      'super admin': 403,
      // Another enterprise's admin names an entity unknown in its enterprise.
      'admin of another enterprise': 400,
    };
    for (const [who, user] of callers) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/bras',
        headers: await headersOf(user),
        payload: { name: `Matrix ${who} ${Date.now()}`, legal_entity_id: w.entity.id, period: 'FY2026', assessor: who },
      });
      expect(response.statusCode, `${who}: ${response.body}`).toBe(expected[who]);
    }
  });
});
