import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { auditEntries, expectAccessDenied } from '../support/audit.js';
import { insertAction } from '../support/actions-factories.js';
import { createBra, createRiskScenario, createSubControl } from '../support/bras-factories.js';
import type { TestUser } from '../support/factories.js';
import { cast } from '../support/cast.js';
import { pdfPages, xlsxSheets } from './parse-report.js';

/** GET /bras/{id}/report: the board pack, read back from its PDF and XLSX. */
describe('BRA reports', async () => {
  const ctx = await createTestContext();
  const w = await cast(ctx);
  const { call } = w;
  const report = async (user: TestUser, braId: string, format: 'pdf' | 'xlsx') => {
    const response = await call(user, 'GET', `/bras/${braId}/report?format=${format}`);
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    return response;
  };

  /** A BRA built through the API: scenarios rated with justifications, controls per scenario, an action. */
  async function assessedBra(scenarioCount: number, approve: boolean) {
    const bra = await createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: w.entity.id, businessUnitId: w.unit.id, createdBy: w.assessor.id, status: 'draft' });
    const { subControl } = await createSubControl(ctx, w.enterprise.id, { tod: 'B', toe: '2', effectiveness: 'Effective' });
    const scenarios: { name: string; linkId: string; inherent: number; residual: number }[] = [];
    for (let index = 0; index < scenarioCount; index += 1) {
      const catalogue = await createRiskScenario(ctx, w.enterprise.id, index % 2 === 0 ? 'External fraud' : 'Internal fraud');
      const link = (await call(w.assessor, 'POST', `/bras/${bra.id}/scenarios`, { risk_scenario_id: catalogue.id })).json().data;
      const [ii, il, ri, rl] = [5, 1 + (index % 5), 2 + (index % 4), 1 + (index % 3)];
      await call(w.assessor, 'POST', `/bras/${bra.id}/ratings`, { bra_risk_scenario_id: link.id, rating_type: 'inherent', impact_score: ii, likelihood_score: il, justification: `Inherent because ${index}` });
      await call(w.assessor, 'POST', `/bras/${bra.id}/ratings`, { bra_risk_scenario_id: link.id, rating_type: 'residual', impact_score: ri, likelihood_score: rl, justification: `Residual because ${index}` });
      if (index === 0) await call(w.assessor, 'POST', `/bras/${bra.id}/controls`, { sub_control_id: subControl.id, bra_risk_scenario_id: link.id });
      scenarios.push({ name: catalogue.name, linkId: link.id, inherent: ii * il, residual: ri * rl });
    }
    await insertAction(ctx, { enterpriseId: w.enterprise.id, braId: bra.id, linkId: scenarios[0]!.linkId, action: 'Retrain the payments team' });
    let snapshotId: string | null = null;
    if (approve) {
      await call(w.assessor, 'POST', `/bras/${bra.id}/submit`);
      const approved = await call(w.admin, 'POST', `/bras/${bra.id}/approve`, { final_comment: 'Accepted by the risk committee' });
      expect(approved.statusCode, approved.body).toBe(200);
      snapshotId = approved.json().data.snapshot_id;
    }
    return { bra, scenarios, subControl, snapshotId };
  }

  describe('an approved BRA', async () => {
    const { bra, scenarios, subControl, snapshotId } = await assessedBra(3, true);

    it('PDF: every scenario name and rating, the snapshot id on every page with its number, the controls, action and final comment', async () => {
      const response = await report(w.reviewer, bra.id, 'pdf');
      expect(response.headers['content-type']).toBe('application/pdf');
      expect(response.headers['content-disposition']).toBe(`attachment; filename="bra-report-${bra.id}.pdf"`);
      const pages = await pdfPages(response.rawPayload);
      const text = pages.join(' ');
      for (const scenario of scenarios) {
        expect(text).toContain(scenario.name);
        expect(text).toContain(`Inherent: ${scenario.inherent} `);
        expect(text).toContain(`Residual: ${scenario.residual} `);
      }
      expect(text).toContain('Inherent because 1');
      expect(text).toContain(subControl.name);
      expect(text).toContain('Retrain the payments team');
      expect(text).toContain('Accepted by the risk committee');
      expect(text).toContain(w.admin.fullName);
      pages.forEach((page, index) => {
        expect(page).toContain(`Approval snapshot ${snapshotId}`);
        expect(page).toContain(`Page ${index + 1} of ${pages.length}`);
        expect(page).not.toContain('DRAFT');
      });
    });

    it('XLSX: every scenario name, rating and the snapshot id; each sheet’s footer carries the snapshot and page number', async () => {
      const response = await report(w.admin, bra.id, 'xlsx');
      const sheets = await xlsxSheets(response.rawPayload);
      const cells = sheets.flatMap((s) => s.cells);
      for (const scenario of scenarios) {
        expect(cells).toContain(scenario.name);
        expect(cells.some((c) => c.startsWith(`${scenario.residual} `))).toBe(true);
      }
      expect(cells).toContain(snapshotId);
      for (const sheet of sheets) {
        expect(sheet.footer).toContain(`Approval snapshot ${snapshotId}`);
        expect(sheet.footer).toContain('Page &P of &N');
        expect(sheet.header).toBeUndefined();
      }
    });

    it('is unchanged in content after its appetite, its controls’ results and its actions change', async () => {
      const [pdfBefore, xlsxBefore] = [await pdfPages((await report(w.admin, bra.id, 'pdf')).rawPayload), await xlsxSheets((await report(w.admin, bra.id, 'xlsx')).rawPayload)];
      const appetite = await call(w.admin, 'POST', '/governance/risk-appetite', { risk_level: 'Low', threshold_value: 2, legal_entity_id: w.entity.id, business_unit_id: w.unit.id });
      expect(appetite.statusCode, appetite.body).toBe(201);
      const retest = await call(w.admin, 'PATCH', `/controls/sub-controls/${subControl.id}`, { tod: 'E', toe: '5' });
      expect(retest.statusCode, retest.body).toBe(200);
      await ctx.db.updateTable('mitigation_actions').set({ status: 'completed', action: 'Something else' }).where('bra_id', '=', bra.id).execute();
      // The live answer has moved…
      const live = (await call(w.admin, 'GET', `/bras/${bra.id}`)).json().data;
      expect(live.controls[0].total_effectiveness).toBe('Not Effective');
      // …the report has not.
      expect(await pdfPages((await report(w.admin, bra.id, 'pdf')).rawPayload)).toEqual(pdfBefore);
      expect(await xlsxSheets((await report(w.admin, bra.id, 'xlsx')).rawPayload)).toEqual(xlsxBefore);
    });

    it('is audited as an export of the BRA', async () => {
      await report(w.reviewer, bra.id, 'xlsx');
      const [entry] = (await auditEntries(ctx, { userId: w.reviewer.id, entityId: bra.id, action: 'export' })).slice(-1);
      expect(entry).toMatchObject({ entity_type: 'bra', status: 'success' });
      expect(entry!.action_details).toMatchObject({ operation: 'reporting.bra_report', format: 'xlsx', basis: 'approval_snapshot', snapshot_id: snapshotId });
    });

    it('follows the BRA’s read rule: unassigned 403, super admin 403, another enterprise 404, unknown 404, bad format 400', async () => {
      await expectAccessDenied(ctx, w.outsideReviewer, await call(w.outsideReviewer, 'GET', `/bras/${bra.id}/report`), 'reporting.bra_report');
      await expectAccessDenied(ctx, w.superAdmin, await call(w.superAdmin, 'GET', `/bras/${bra.id}/report`));
      expect((await call(w.otherAdmin, 'GET', `/bras/${bra.id}/report`)).statusCode).toBe(404);
      expect((await call(w.admin, 'GET', `/bras/${crypto.randomUUID()}/report`)).statusCode).toBe(404);
      expect((await call(w.admin, 'GET', `/bras/${bra.id}/report?format=docx`)).statusCode).toBe(400);
      expect((await call(w.unitAssessor, 'GET', `/bras/${bra.id}/report`)).statusCode).toBe(200);
    });
  });

  describe('a draft', async () => {
    const { bra, scenarios } = await assessedBra(14, false);

    it('PDF: DRAFT on every page, and the live data with every scenario', async () => {
      const pages = await pdfPages((await report(w.assessor, bra.id, 'pdf')).rawPayload);
      expect(pages.length).toBeGreaterThan(1);
      pages.forEach((page, index) => {
        expect(page).toContain('DRAFT');
        expect(page).toContain(`Page ${index + 1} of ${pages.length}`);
      });
      const text = pages.join(' ');
      for (const scenario of scenarios) expect(text).toContain(scenario.name);
      expect(text).toContain('no approval snapshot');
    });

    it('XLSX: DRAFT on every sheet and in every printed page’s header', async () => {
      const sheets = await xlsxSheets((await report(w.assessor, bra.id, 'xlsx')).rawPayload);
      for (const sheet of sheets) {
        expect(sheet.cells[0]).toContain('DRAFT');
        expect(sheet.header).toContain('DRAFT');
      }
    });
  });
});
