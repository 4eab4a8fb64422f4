import type { RouteOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { insertAction } from '../support/actions-factories.js';
import { sessionHeaders } from '../support/api.js';
import { createTestContext } from '../support/app.js';
import { createBraWorld, createRiskScenario } from '../support/bras-factories.js';
import { createKeyControl, createSubControl } from '../support/controls-factories.js';
import { createBusinessUnit, createLegalEntity } from '../support/factories.js';

/**
 * Interface 2.9: "`delete` covers archiving as well as deletion". Every archive route of the API, found in
 * the route table as it is registered, archives a fresh record here and must write `delete` entries only
 * (platform/changes/versioned-change.ts, `archiveVersioned`, is where the action is chosen). A new archive
 * route without a case below fails the first test.
 */
describe('archiving is audited as delete, on every archive route (2.9)', async () => {
  const archiveRoutes: string[] = [];
  const ctx = await createTestContext({
    onRoute: (route: RouteOptions) => {
      if (/\/(un)?archive$/.test(route.url)) archiveRoutes.push(`${[route.method].flat().join(',')} ${route.url}`);
    },
  });
  const w = await createBraWorld(ctx);
  const headersOf = sessionHeaders(ctx);
  const enterpriseId = w.enterprise.id;
  const lastSeq = async () =>
    Number((await ctx.db.selectFrom('audit_log').select((eb) => eb.fn.max('chain_seq').as('seq')).where('enterprise_id', '=', enterpriseId).executeTakeFirst())?.seq ?? 0);

  /** Each archive route: a fresh record of the caller's enterprise, the URL that archives it, and the records it archives. */
  const cases: Record<string, () => Promise<{ url: string; archived: string[] }>> = {
    'POST /api/v1/legal-entities/:id/archive': async () => {
      const entity = await createLegalEntity(ctx, enterpriseId);
      const unit = await createBusinessUnit(ctx, enterpriseId, entity.id);
      return { url: `/legal-entities/${entity.id}/archive`, archived: [entity.id, unit.id] };
    },
    'POST /api/v1/business-units/:id/archive': async () => {
      const unit = await createBusinessUnit(ctx, enterpriseId, (await createLegalEntity(ctx, enterpriseId)).id);
      return { url: `/business-units/${unit.id}/archive`, archived: [unit.id] };
    },
    'POST /api/v1/risk-scenarios/:id/archive': async () => {
      const scenario = await createRiskScenario(ctx, enterpriseId);
      return { url: `/risk-scenarios/${scenario.id}/archive`, archived: [scenario.id] };
    },
    'POST /api/v1/mitigation-actions/:action_id/archive': async () => {
      const action = await insertAction(ctx, { enterpriseId });
      return { url: `/mitigation-actions/${action.id}/archive`, archived: [action.id] };
    },
    'POST /api/v1/controls/key-controls/:key_control_id/archive': async () => {
      const keyControl = await createKeyControl(ctx, enterpriseId);
      const subControl = await createSubControl(ctx, enterpriseId, { keyControlId: keyControl.id });
      return { url: `/controls/key-controls/${keyControl.id}/archive`, archived: [keyControl.id, subControl.id] };
    },
    'POST /api/v1/controls/sub-controls/:sub_control_id/archive': async () => {
      const subControl = await createSubControl(ctx, enterpriseId);
      return { url: `/controls/sub-controls/${subControl.id}/archive`, archived: [subControl.id] };
    },
  };

  it('every archive route of the API has a case here', () => {
    expect(archiveRoutes.length).toBeGreaterThan(0);
    expect(archiveRoutes.sort()).toEqual(Object.keys(cases).sort());
  });

  for (const [route, make] of Object.entries(cases)) {
    it(`${route} writes delete entries, one per record it archives, and nothing else`, async () => {
      const { url, archived } = await make();
      const since = await lastSeq();
      const answer = await ctx.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: await headersOf(w.admin) });
      expect(answer.statusCode, answer.body).toBe(200);
      const entries = await ctx.db
        .selectFrom('audit_log')
        .select(['action_type', 'entity_id'])
        .where('enterprise_id', '=', enterpriseId)
        .where('chain_seq', '>', since)
        .execute();
      expect(entries.map((entry) => entry.action_type)).toEqual(entries.map(() => 'delete'));
      for (const id of archived) expect(entries.map((entry) => entry.entity_id), id).toContain(id);
    });
  }
});
