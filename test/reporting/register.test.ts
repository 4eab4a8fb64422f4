import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../audit-trail/csv-parse.js';
import { sessionHeaders } from '../support/api.js';
import { createTestContext } from '../support/app.js';
import { auditEntries, expectAccessDenied } from '../support/audit.js';
import { createLegalEntity, type TestUser } from '../support/factories.js';
import { createRegisterWorld } from './register-world.js';

type Row = {
  legal_entity: { id: string; name: string };
  business_unit: { id: string } | null;
  bra: { id: string; live: boolean; status: string };
  scenario: { id: string; name: string; category: string };
  inherent_rating: { impact_score: number; likelihood_score: number; risk_score: number } | null;
  residual_rating: { impact_score: number; likelihood_score: number; risk_score: number; risk_level: string } | null;
  appetite_threshold: number;
  above_appetite: boolean;
  control_effectiveness: string | null;
  open_actions: number;
  overdue_actions: number;
};

/** GET /risk-register and its export: the right rows for every role, the figures of each row, filters, sort, pages. */
describe('the risk register', async () => {
  const ctx = await createTestContext();
  const { w, bras, links } = await createRegisterWorld(ctx);
  const headersOf = sessionHeaders(ctx);
  const get = async (user: TestUser, query = '') => ctx.app.inject({ method: 'GET', url: `/api/v1/risk-register${query}`, headers: await headersOf(user) });
  const rowsOf = async (user: TestUser, query = '') => {
    const response = await get(user, query.includes('?') ? `${query}&page_size=100` : `?page_size=100${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as Row[];
  };
  const ids = (rows: Row[]) => rows.map((r) => r.scenario.id).sort();

  const entityRows = [links.high.id, links.low.id];
  it.each([
    ['client admin', () => w.admin, () => [...entityRows, links.unitScenario.id, links.elsewhereScenario.id]],
    ['assessor of the entity', () => w.assessor, () => [...entityRows, links.unitScenario.id]],
    ['reviewer of the entity', () => w.reviewer, () => [...entityRows, links.unitScenario.id]],
    ['assessor of the unit only', () => w.unitAssessor, () => [links.unitScenario.id]],
    ['assessor elsewhere', () => w.outsideAssessor, () => [links.elsewhereScenario.id]],
    ['reviewer elsewhere', () => w.outsideReviewer, () => [links.elsewhereScenario.id]],
    ['admin of another enterprise', () => w.otherAdmin, () => [links.foreignScenario.id]],
  ])('%s: exactly the included scenarios of the newest approved BRA of each place in scope', async (_who, user, expected) => {
    expect(ids(await rowsOf(user()))).toEqual(expected().sort());
  });

  it('a super admin is refused (403)', async () => {
    await expectAccessDenied(ctx, w.superAdmin, await get(w.superAdmin), 'reporting.register');
  });

  it('each row carries its BRA, ratings, the applicable appetite, the weakest control effectiveness and its open and overdue actions', async () => {
    const rows = await rowsOf(w.admin);
    const high = rows.find((r) => r.scenario.id === links.high.id)!;
    expect(high).toMatchObject({
      legal_entity: { id: w.entity.id },
      business_unit: null,
      bra: { id: bras.entityBra.id, status: 'approved', live: false, approved_at: '2026-06-30T10:00:00.000Z', period: '2026', assessor: 'Test Assessor' },
      inherent_rating: { impact_score: 5, likelihood_score: 4, risk_score: 20, risk_level: 'Very High' },
      residual_rating: { impact_score: 4, likelihood_score: 3, risk_score: 12, risk_level: 'High' },
      appetite_threshold: 11,
      above_appetite: true,
      control_effectiveness: 'Less Effective',
      open_actions: 2,
      overdue_actions: 1,
    });
    expect(rows.find((r) => r.scenario.id === links.low.id)).toMatchObject({ above_appetite: false, control_effectiveness: null, open_actions: 0 });
    // The unit's BRA: the entity's appetite (11) applies to units without their own; 9 is within it.
    expect(rows.find((r) => r.scenario.id === links.unitScenario.id)).toMatchObject({ appetite_threshold: 11, above_appetite: false, business_unit: { id: w.unit.id } });
    expect(rows.find((r) => r.scenario.id === links.elsewhereScenario.id)).toMatchObject({ appetite_threshold: 9, above_appetite: true });
  });

  it('include_live=true adds the live BRAs, marked; cancelled BRAs never appear', async () => {
    const rows = await rowsOf(w.admin, '?include_live=true');
    expect(ids(rows)).toEqual([...entityRows, links.unitScenario.id, links.elsewhereScenario.id, links.liveScenario.id].sort());
    expect(rows.find((r) => r.scenario.id === links.liveScenario.id)!.bra).toMatchObject({ id: bras.liveBra.id, live: true, status: 'in_progress', approved_at: null });
    expect(ids(await rowsOf(w.outsideAssessor, '?include_live=true'))).toEqual([links.elsewhereScenario.id]);
  });

  it('filters by entity, unit, category, residual level, above appetite and rating cell', async () => {
    expect(ids(await rowsOf(w.admin, `?legal_entity_id=${w.entity.id}`))).toEqual([...entityRows, links.unitScenario.id].sort());
    expect(ids(await rowsOf(w.admin, `?business_unit_id=${w.unit.id}`))).toEqual([links.unitScenario.id]);
    expect(ids(await rowsOf(w.admin, '?above_appetite=true'))).toEqual([links.high.id, links.elsewhereScenario.id].sort());
    expect(ids(await rowsOf(w.admin, '?above_appetite=false'))).toEqual([links.low.id, links.unitScenario.id].sort());
    expect(ids(await rowsOf(w.admin, '?risk_level=High'))).toEqual([links.high.id, links.elsewhereScenario.id].sort());
    expect(ids(await rowsOf(w.admin, '?residual_impact=4&residual_likelihood=3'))).toEqual([links.high.id]);
    expect(ids(await rowsOf(w.admin, '?inherent_impact=4&inherent_likelihood=4'))).toEqual([links.unitScenario.id]);
    await ctx.db.updateTable('risk_scenarios').set({ category: 'Internal fraud' }).where('id', '=', links.low.risk_scenario_id).execute();
    expect(ids(await rowsOf(w.admin, `?category=${encodeURIComponent('Internal fraud')}`))).toEqual([links.low.id]);
  });

  it('a filter on an unassigned entity or unit → 403; an unknown one → 400 INVALID_REFERENCE; a bad value → 400', async () => {
    await expectAccessDenied(ctx, w.outsideAssessor, await get(w.outsideAssessor, `?legal_entity_id=${w.entity.id}`));
    await expectAccessDenied(ctx, w.unitAssessor, await get(w.unitAssessor, `?business_unit_id=${w.otherUnit.id}`));
    const foreign = await get(w.admin, `?legal_entity_id=${w.otherEntity.id}`);
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toMatchObject({ code: 'INVALID_REFERENCE', details: { field: 'legal_entity_id' } });
    expect((await get(w.admin, '?risk_level=Huge')).statusCode).toBe(400);
    expect((await get(w.admin, '?residual_impact=6')).statusCode).toBe(400);
  });

  it('sorts by residual score (default, highest first) or by name, and paginates', async () => {
    const byScore = await rowsOf(w.admin);
    expect(byScore.map((r) => r.residual_rating!.risk_score)).toEqual([12, 10, 9, 4]);
    const byName = await rowsOf(w.admin, '?sort=name');
    expect(byName.map((r) => r.scenario.name)).toEqual([...byName.map((r) => r.scenario.name)].sort());
    const page = await get(w.admin, '?page=2&page_size=3');
    expect(page.json().pagination).toEqual({ page: 2, page_size: 3, total: 4, total_pages: 2, has_next: false, has_prev: true });
    expect(page.json().data.map((r: Row) => r.scenario.id)).toEqual([byScore[3]!.scenario.id]);
    const past = await get(w.admin, '?page=3&page_size=3');
    expect(past.json()).toMatchObject({ data: [], pagination: { page: 3, total: 4, total_pages: 2, has_next: false } });
    const none = await get(w.admin, '?category=Nothing&page=1');
    expect(none.json()).toMatchObject({ data: [], pagination: { total: 0, total_pages: 0 } });
  });

  describe('export', () => {
    const download = async (user: TestUser, query: string) =>
      ctx.app.inject({ method: 'GET', url: `/api/v1/risk-register/export${query}`, headers: await headersOf(user) });

    it('CSV holds the rows the register lists, formula-safe, as a dated attachment, audited as an export', async () => {
      await ctx.db.updateTable('risk_scenarios').set({ name: '=HYPERLINK("http://evil")' }).where('id', '=', links.high.risk_scenario_id).execute();
      const response = await download(w.reviewer, '?format=csv');
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.headers['content-disposition']).toMatch(/^attachment; filename="risk-register-\d{8}\.csv"$/);
      const [header, ...records] = parseCsv(response.body);
      expect(header![9]).toBe('scenario_name');
      const listed = await rowsOf(w.reviewer);
      expect(records.map((r) => r[8]).sort()).toEqual(ids(listed));
      expect(records.map((r) => r[8])).toEqual(listed.map((r) => r.scenario.id));
      expect(records.find((r) => r[8] === links.high.id)![9]).toBe(`'=HYPERLINK("http://evil")`);
      // residual_score, residual_level, appetite_threshold, above_appetite, control_effectiveness, open and overdue actions
      expect(records.find((r) => r[8] === links.high.id)!.slice(17, 24)).toEqual(['12', 'High', '11', 'true', 'Less Effective', '2', '1']);
      const [entry] = (await auditEntries(ctx, { userId: w.reviewer.id, action: 'export' })).slice(-1);
      expect(entry!.action_details).toMatchObject({ operation: 'reporting.register.export', export: 'risk_register', format: 'csv' });
    });

    it('XLSX holds the same rows under the same filters; another enterprise’s rows never appear', async () => {
      const response = await download(w.admin, `?format=xlsx&legal_entity_id=${w.entity.id}`);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
      const sheet = workbook.worksheets[0]!;
      const values: unknown[][] = [];
      sheet.eachRow((row) => values.push((row.values as unknown[]).slice(1)));
      expect(values[0]![8]).toBe('scenario_id');
      expect(values.slice(1).map((v) => v[8]).sort()).toEqual([...entityRows, links.unitScenario.id].sort());
      const high = values.find((v) => v[8] === links.high.id)!;
      expect(high[9]).toBe(`'=HYPERLINK("http://evil")`);
      expect(high[17]).toBe(12);
      const foreign = await download(w.otherAdmin, '?format=xlsx');
      const other = new ExcelJS.Workbook();
      await other.xlsx.load(foreign.rawPayload as unknown as ArrayBuffer);
      const foreignIds: unknown[] = [];
      other.worksheets[0]!.eachRow((row, n) => n > 1 && foreignIds.push((row.values as unknown[])[9]));
      expect(foreignIds).toEqual([links.foreignScenario.id]);
    });

    it('streams every row past the first cursor batches (CSV and XLSX), in the register’s order', async () => {
      const { createBraEnterprise, createBra, addScenarioLink, rateBoth } = await import('../support/bras-factories.js');
      const { createUser } = await import('../support/factories.js');
      const enterprise = await createBraEnterprise(ctx);
      const owner = await createUser(ctx, { role: 'admin', enterpriseId: enterprise.id });
      const entity = await createLegalEntity(ctx, enterprise.id);
      const bra = await createBra(ctx, { enterpriseId: enterprise.id, legalEntityId: entity.id, status: 'approved' });
      for (let index = 0; index < 250; index += 1) await rateBoth(ctx, await addScenarioLink(ctx, bra), [1 + (index % 5), 2], [1 + (index % 3), 1]);
      const csv = parseCsv((await download(owner, '?format=csv')).body);
      expect(csv).toHaveLength(251);
      expect(new Set(csv.slice(1).map((r) => r[8])).size).toBe(250);
      const scores = csv.slice(1).map((r) => Number(r[17]));
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load((await download(owner, '?format=xlsx')).rawPayload as unknown as ArrayBuffer);
      expect(workbook.worksheets[0]!.actualRowCount).toBe(251);
    });

    it('refuses as the register does: super admins 403, unassigned filters 403', async () => {
      await expectAccessDenied(ctx, w.superAdmin, await download(w.superAdmin, '?format=csv'));
      await expectAccessDenied(ctx, w.outsideReviewer, await download(w.outsideReviewer, `?format=csv&legal_entity_id=${w.entity.id}`));
      const extra = await createLegalEntity(ctx, w.enterprise.id);
      const empty = await download(w.admin, `?format=csv&legal_entity_id=${extra.id}`);
      expect(parseCsv(empty.body)).toHaveLength(1);
    });
  });
});
