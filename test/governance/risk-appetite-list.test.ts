import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { sessionHeaders } from '../support/api.js';
import { expectAccessDenied } from '../support/audit.js';
import { assignEntity, createBusinessUnit, createLegalEntity, createUser } from '../support/factories.js';
import { createGovernedEnterprise } from '../support/governance-factories.js';

/** GET /api/v1/governance/risk-appetite (4.5, D5, D10.1). */
describe('risk appetite list', async () => {
  const ctx = await createTestContext();
  const headers = sessionHeaders(ctx);
  const { enterprise, admin, entity, unit, defaultAppetite } = await createGovernedEnterprise(ctx);
  const otherUnit = await createBusinessUnit(ctx, enterprise.id, entity.id);
  const secondEntity = await createLegalEntity(ctx, enterprise.id);
  const upsert = async (payload: Record<string, unknown>) =>
    (await ctx.app.inject({ method: 'POST', url: '/api/v1/governance/risk-appetite', headers: await headers(admin), payload })).json().data;
  const entityLevel = await upsert({ risk_level: 'Medium', threshold_value: 8, legal_entity_id: entity.id });
  const unitLevel = await upsert({ risk_level: 'Low', threshold_value: 4, legal_entity_id: entity.id, business_unit_id: unit.id });
  const otherUnitLevel = await upsert({ risk_level: 'Low', threshold_value: 3, legal_entity_id: entity.id, business_unit_id: otherUnit.id });
  const secondLevel = await upsert({ risk_level: 'High', threshold_value: 12, legal_entity_id: secondEntity.id });

  const list = async (query: string, user: { id: string; email: string } = admin) =>
    ctx.app.inject({ method: 'GET', url: `/api/v1/governance/risk-appetite${query}`, headers: await headers(user as never) });
  const idsOf = (response: { json(): any }) => response.json().data.map((r: { id: string }) => r.id);

  it('a client admin lists every record of the enterprise, newest first, with the fields of 2.5 and only `data`', async () => {
    const response = await list('');
    expect(response.statusCode).toBe(200);
    expect(Object.keys(response.json())).toEqual(['data']);
    expect(idsOf(response)).toEqual([secondLevel.id, otherUnitLevel.id, unitLevel.id, entityLevel.id, defaultAppetite.id]);
    expect(response.json().data[4]).toEqual({
      id: defaultAppetite.id, risk_level: 'Medium', threshold_value: 9, description: 'Enterprise default',
      legal_entity_id: null, business_unit_id: null, created_at: expect.stringMatching(/Z$/), updated_at: expect.stringMatching(/Z$/), updated_by: null,
    });
  });

  it('filters by legal entity and by business unit', async () => {
    expect(idsOf(await list(`?legal_entity_id=${entity.id}`))).toEqual([otherUnitLevel.id, unitLevel.id, entityLevel.id]);
    expect(idsOf(await list(`?business_unit_id=${unit.id}`))).toEqual([unitLevel.id]);
    expect(idsOf(await list(`?legal_entity_id=${secondEntity.id}`))).toEqual([secondLevel.id]);
  });

  it('an assessor sees the default and the records of the entities and units assigned (D5)', async () => {
    const assessor = await createUser(ctx, { role: 'assessor', enterpriseId: enterprise.id });
    await assignEntity(ctx, assessor, entity.id, unit.id);
    expect(idsOf(await list('', assessor))).toEqual([unitLevel.id, entityLevel.id, defaultAppetite.id]);
    const reviewer = await createUser(ctx, { role: 'reviewer', enterpriseId: enterprise.id });
    await assignEntity(ctx, reviewer, secondEntity.id);
    expect(idsOf(await list('', reviewer))).toEqual([secondLevel.id, defaultAppetite.id]);
    const unassigned = await createUser(ctx, { role: 'reviewer', enterpriseId: enterprise.id });
    expect(idsOf(await list('', unassigned))).toEqual([defaultAppetite.id]);
  });

  it('a filter naming an unassigned entity or unit answers 403 (D10.1)', async () => {
    const assessor = await createUser(ctx, { role: 'assessor', enterpriseId: enterprise.id });
    await assignEntity(ctx, assessor, entity.id, unit.id);
    expect(idsOf(await list(`?business_unit_id=${unit.id}`, assessor))).toEqual([unitLevel.id]);
    await expectAccessDenied(ctx, assessor, await list(`?legal_entity_id=${secondEntity.id}`, assessor), 'governance.risk_appetite.list');
    await expectAccessDenied(ctx, assessor, await list(`?business_unit_id=${otherUnit.id}`, assessor));
  });

  it("never shows another enterprise's records, and refuses a super admin (D5)", async () => {
    const other = await createGovernedEnterprise(ctx);
    expect(idsOf(await list('', other.admin))).toEqual([other.defaultAppetite.id]);
    // Another enterprise's entity is no entity of theirs: 400 INVALID_REFERENCE, as an unknown id (issue 44.6).
    const foreignFilter = await list(`?legal_entity_id=${entity.id}`, other.admin);
    expect(foreignFilter.statusCode, foreignFilter.body).toBe(400);
    expect(foreignFilter.json()).toMatchObject({ code: 'INVALID_REFERENCE', details: { field: 'legal_entity_id' } });
    const superAdmin = await createUser(ctx, { role: 'super_admin' });
    await expectAccessDenied(ctx, superAdmin, await list('', superAdmin));
  });

  it('refuses a malformed filter with 400 (D2.2)', async () => {
    const response = await list('?legal_entity_id=abc');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'BAD_REQUEST' });
  });
});
