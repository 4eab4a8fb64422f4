import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sessionHeaders } from '../support/api.js';
import { createTestContext } from '../support/app.js';
import { expectAccessDenied } from '../support/audit.js';
import { createBraRow, createKeyControl, createSubControl, linkSubControlToBra } from '../support/controls-factories.js';
import { assignEntity, createBusinessUnit, createEnterprise, createLegalEntity, createUser, type TestUser } from '../support/factories.js';

const ZERO = { highly_effective: 0, effective: 0, moderately_effective: 0, less_effective: 0, not_effective: 0, not_assessed: 0 };

/** Effectiveness summary and heat map (4.3), their scope through the BRA control links (D7.1) and D5's role rules. */
describe('effectiveness summary and heat map (4.3, D7.1, D5)', async () => {
  const ctx = await createTestContext();
  const enterprise = await createEnterprise(ctx);
  const other = await createEnterprise(ctx);
  const admin = await createUser(ctx, { role: 'admin', enterpriseId: enterprise.id });
  const otherAdmin = await createUser(ctx, { role: 'admin', enterpriseId: other.id });
  const superAdmin = await createUser(ctx, { role: 'super_admin' });

  const bank = await createLegalEntity(ctx, enterprise.id, 'Bank');
  const retail = await createBusinessUnit(ctx, enterprise.id, bank.id, 'Retail');
  const treasury = await createBusinessUnit(ctx, enterprise.id, bank.id, 'Treasury');
  const insurance = await createLegalEntity(ctx, enterprise.id, 'Insurance');
  const claims = await createBusinessUnit(ctx, enterprise.id, insurance.id, 'Claims');
  const foreignEntity = await createLegalEntity(ctx, other.id, 'Foreign');

  const braRetail = await createBraRow(ctx, enterprise.id, { legalEntityId: bank.id, businessUnitId: retail.id });
  const braTreasury = await createBraRow(ctx, enterprise.id, { legalEntityId: bank.id, businessUnitId: treasury.id });
  const braBank = await createBraRow(ctx, enterprise.id, { legalEntityId: bank.id });
  const braInsurance = await createBraRow(ctx, enterprise.id, { legalEntityId: insurance.id });

  const keyControl = await createKeyControl(ctx, enterprise.id);
  const sub = (values: Parameters<typeof createSubControl>[2] = {}) => createSubControl(ctx, enterprise.id, { keyControlId: keyControl.id, ...values });
  const s1 = await sub({ tod: 'A', toe: '1' }); // Highly Effective
  const s2 = await sub({ tod: 'C', toe: '3' }); // Moderately Effective
  const s3 = await sub({ tod: 'E', toe: '5' }); // Not Effective
  const s4 = await sub({ tod: 'B' }); // not assessed: ToE unset
  const s5 = await sub({ tod: 'D', toe: '4', archived: true }); // Not Effective, archived
  await sub(); // not assessed, linked to no BRA
  const s7 = await sub({ tod: 'B', toe: '2' }); // Effective, linked to two BRAs
  await sub({ tod: 'A', toe: '4' }); // Moderately Effective, linked to no BRA
  for (const [bra, subControl] of [
    [braRetail, s1],
    [braTreasury, s2],
    [braBank, s3],
    [braInsurance, s4],
    [braRetail, s5],
    [braRetail, s7],
    [braTreasury, s7],
  ] as const) {
    await linkSubControlToBra(ctx, enterprise.id, bra.id, subControl.id);
  }
  // Another enterprise's assessed sub-controls are never counted here.
  for (let i = 0; i < 3; i += 1) await createSubControl(ctx, other.id, { tod: 'A', toe: '1' });

  const headersOf = sessionHeaders(ctx);
  const get = async (user: TestUser, path: 'effectiveness' | 'heat-map', query = '') =>
    ctx.app.inject({ method: 'GET', url: `/api/v1/controls/${path}${query}`, headers: await headersOf(user) });
  const summary = async (user: TestUser, query = '') => {
    const response = await get(user, 'effectiveness', query);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  };
  const heatMap = async (user: TestUser, query = '') => {
    const response = await get(user, 'heat-map', query);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  };
  /** The non-zero cells of a heat map, as "A1: 2". */
  const filledCells = (map: { data: Record<string, Record<string, { count: number }>> }) =>
    Object.entries(map.data).flatMap(([tod, row]) => Object.entries(row).filter(([, cell]) => cell.count > 0).map(([toe, cell]) => `${tod}${toe}: ${cell.count}`));

  describe('GET /controls/effectiveness', () => {
    it('counts every active sub-control of the enterprise by label; unset ToD or ToE is not_assessed (D7.1)', async () => {
      const response = await get(admin, 'effectiveness');
      expect(response.json()).toEqual({
        data: { highly_effective: 1, effective: 1, moderately_effective: 2, less_effective: 0, not_effective: 1, not_assessed: 2, total: 7 },
        message: expect.any(String),
      });
    });

    it('archived sub-controls are left out unless archived=true', async () => {
      expect(await summary(admin, '?archived=true')).toMatchObject({ not_effective: 2, total: 8 });
    });

    it('legal_entity_id counts the sub-controls linked to BRAs of that entity, each once (D7.1)', async () => {
      expect(await summary(admin, `?legal_entity_id=${bank.id}`)).toEqual({ ...ZERO, highly_effective: 1, effective: 1, moderately_effective: 1, not_effective: 1, total: 4 });
      expect(await summary(admin, `?legal_entity_id=${insurance.id}`)).toEqual({ ...ZERO, not_assessed: 1, total: 1 });
    });

    it('business_unit_id narrows to BRAs of that unit, with or without its legal_entity_id', async () => {
      expect(await summary(admin, `?legal_entity_id=${bank.id}&business_unit_id=${retail.id}`)).toEqual({ ...ZERO, highly_effective: 1, effective: 1, total: 2 });
      expect(await summary(admin, `?business_unit_id=${treasury.id}`)).toEqual({ ...ZERO, moderately_effective: 1, effective: 1, total: 2 });
      expect(await summary(admin, `?business_unit_id=${claims.id}`)).toEqual({ ...ZERO, total: 0 });
    });

    it("counts only the caller's enterprise (cross-tenant)", async () => {
      expect(await summary(otherAdmin)).toEqual({ ...ZERO, highly_effective: 3, total: 3 });
    });
  });

  describe('GET /controls/heat-map', () => {
    it('always has all 25 cells with their 3.5 labels, zeros included, and total_assessed (4.3, D7.1)', async () => {
      const response = await get(admin, 'heat-map');
      const body = response.json();
      expect(body.message).toEqual(expect.any(String));
      expect(body.data.tod_levels).toEqual(['A', 'B', 'C', 'D', 'E']);
      expect(body.data.toe_levels).toEqual(['1', '2', '3', '4', '5']);
      expect(Object.keys(body.data.data)).toEqual(['A', 'B', 'C', 'D', 'E']);
      for (const tod of body.data.tod_levels) {
        expect(Object.keys(body.data.data[tod])).toEqual(['1', '2', '3', '4', '5']);
        for (const toe of body.data.toe_levels) {
          expect(body.data.data[tod][toe]).toEqual({ count: expect.any(Number), effectiveness: expect.any(String), filter: { tod, toe } });
        }
      }
      expect(body.data.data.B['2']).toEqual({ count: 1, effectiveness: 'Effective', filter: { tod: 'B', toe: '2' } });
      expect(body.data.data.D['4']).toEqual({ count: 0, effectiveness: 'Not Effective', filter: { tod: 'D', toe: '4' } });
      expect(filledCells(body.data).sort()).toEqual(['A1: 1', 'A4: 1', 'B2: 1', 'C3: 1', 'E5: 1']);
      expect(body.data.total_assessed).toBe(5);
    });

    it('leaves out archived and unassessed sub-controls; archived=true adds archived ones', async () => {
      expect(filledCells(await heatMap(admin, '?archived=true')).sort()).toEqual(['A1: 1', 'A4: 1', 'B2: 1', 'C3: 1', 'D4: 1', 'E5: 1']);
    });

    it('is scoped like the summary: entity, unit (D7.1)', async () => {
      const bankMap = await heatMap(admin, `?legal_entity_id=${bank.id}`);
      expect(filledCells(bankMap).sort()).toEqual(['A1: 1', 'B2: 1', 'C3: 1', 'E5: 1']);
      expect(bankMap.total_assessed).toBe(4);
      const retailMap = await heatMap(admin, `?business_unit_id=${retail.id}`);
      expect(filledCells(retailMap).sort()).toEqual(['A1: 1', 'B2: 1']);
      const insuranceMap = await heatMap(admin, `?legal_entity_id=${insurance.id}`);
      expect(insuranceMap.total_assessed).toBe(0);
      expect(Object.values(insuranceMap.data).flatMap((row) => Object.values(row as object))).toHaveLength(25);
    });

    it("an enterprise with nothing assessed still gets the 25 cells, all zero", async () => {
      const empty = await createEnterprise(ctx);
      const emptyAdmin = await createUser(ctx, { role: 'admin', enterpriseId: empty.id });
      const map = await heatMap(emptyAdmin);
      expect(filledCells(map)).toEqual([]);
      expect(map.total_assessed).toBe(0);
      expect(await summary(emptyAdmin)).toEqual({ ...ZERO, total: 0 });
    });
  });

  describe('role rules and scope answers (D5, D7.1, D10.1)', async () => {
    const bankAssessor = await createUser(ctx, { role: 'assessor', enterpriseId: enterprise.id });
    await assignEntity(ctx, bankAssessor, bank.id);
    const retailReviewer = await createUser(ctx, { role: 'reviewer', enterpriseId: enterprise.id });
    await assignEntity(ctx, retailReviewer, bank.id, retail.id);
    const unassigned = await createUser(ctx, { role: 'assessor', enterpriseId: enterprise.id });

    it('assessors and reviewers read the whole library without filters (D5)', async () => {
      for (const user of [bankAssessor, retailReviewer, unassigned]) {
        expect(await summary(user)).toMatchObject({ total: 7 });
        expect((await heatMap(user)).total_assessed).toBe(5);
      }
    });

    it('an assessor filters on an assigned entity and gets its counts', async () => {
      expect(await summary(bankAssessor, `?legal_entity_id=${bank.id}`)).toMatchObject({ total: 4 });
      expect((await heatMap(bankAssessor, `?business_unit_id=${treasury.id}`)).total_assessed).toBe(2);
    });

    it.each(['effectiveness', 'heat-map'] as const)('%s: an unassigned entity or unit is refused with 403 and an access_denied entry', async (path) => {
      const operation = path === 'effectiveness' ? 'controls.effectiveness' : 'controls.heat_map';
      await expectAccessDenied(ctx, bankAssessor, await get(bankAssessor, path, `?legal_entity_id=${insurance.id}`), operation);
      await expectAccessDenied(ctx, unassigned, await get(unassigned, path, `?legal_entity_id=${bank.id}`), operation);
      await expectAccessDenied(ctx, retailReviewer, await get(retailReviewer, path, `?business_unit_id=${treasury.id}`), operation);
      await expectAccessDenied(ctx, retailReviewer, await get(retailReviewer, path, `?legal_entity_id=${insurance.id}`), operation);
    });

    it('a reviewer assigned to one unit, filtering on its entity, counts the BRAs of that unit only', async () => {
      expect(await summary(retailReviewer, `?legal_entity_id=${bank.id}`)).toEqual({ ...ZERO, highly_effective: 1, effective: 1, total: 2 });
      expect(await summary(retailReviewer, `?business_unit_id=${retail.id}`)).toMatchObject({ total: 2 });
    });

    it.each(['effectiveness', 'heat-map'] as const)('%s: a super admin is refused with 403 (D5)', async (path) => {
      await expectAccessDenied(ctx, superAdmin, await get(superAdmin, path));
    });

    it.each(['effectiveness', 'heat-map'] as const)("%s: another enterprise's or an unknown entity or unit is 400 INVALID_REFERENCE (D2.2)", async (path) => {
      for (const [query, field] of [
        [`?legal_entity_id=${foreignEntity.id}`, 'legal_entity_id'],
        [`?legal_entity_id=${randomUUID()}`, 'legal_entity_id'],
        [`?business_unit_id=${randomUUID()}`, 'business_unit_id'],
      ] as const) {
        const response = await get(admin, path, query);
        expect(response.statusCode, query).toBe(400);
        expect(response.json()).toMatchObject({ code: 'INVALID_REFERENCE', details: { field } });
      }
      expect((await get(otherAdmin, path, `?legal_entity_id=${bank.id}`)).json().code).toBe('INVALID_REFERENCE');
    });

    it.each(['effectiveness', 'heat-map'] as const)('%s: a unit of another entity is 400 INVALID_REFERENCE; malformed ids are 400 (D2.2)', async (path) => {
      const mismatched = await get(admin, path, `?legal_entity_id=${insurance.id}&business_unit_id=${retail.id}`);
      expect(mismatched.statusCode, mismatched.body).toBe(400);
      expect(mismatched.json()).toMatchObject({ code: 'INVALID_REFERENCE', details: { field: 'business_unit_id' } });
      for (const query of ['?legal_entity_id=bank', '?business_unit_id=1', '?archived=maybe']) {
        const response = await get(admin, path, query);
        expect(response.statusCode, query).toBe(400);
        expect(response.json().code).toBe('BAD_REQUEST');
      }
    });
  });
});
