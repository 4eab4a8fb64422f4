import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { auditEntries, countAuditEntries, expectAccessDenied } from '../support/audit.js';
import { calls } from '../support/cast.js';
import { assignEntity, createLegalEntity, createUser } from '../support/factories.js';
import { createGovernedEnterprise } from '../support/governance-factories.js';

/** DELETE /api/v1/governance/risk-appetite/{id} and GET .../history (4.5, D7.4). */
describe('risk appetite delete and history', async () => {
  const ctx = await createTestContext();
  const { call } = calls(ctx);
  const APPETITE = '/governance/risk-appetite';
  // Each test makes an enterprise of its own (createGovernedEnterprise), not the cast's: a history lists every
  // change of the enterprise, so tests must not share one.

  it('deletes an override: 200 with a message only, a history entry with new values null, a delete audit entry', async () => {
    const { enterprise, admin, entity } = await createGovernedEnterprise(ctx);
    const override = (await call(admin, 'POST', APPETITE, { risk_level: 'Low', threshold_value: 4, legal_entity_id: entity.id })).json().data;
    const response = await call(admin, 'DELETE', `${APPETITE}/${override.id}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ message: expect.any(String) });
    expect(await ctx.db.selectFrom('risk_appetites').select('id').where('id', '=', override.id).execute()).toEqual([]);
    const history = (await call(admin, 'GET', `${APPETITE}/history?risk_appetite_id=${override.id}`)).json().data;
    expect(history.map((h: any) => [h.previous_level, h.new_level, h.previous_threshold, h.new_threshold])).toEqual([
      ['Low', null, 4, null],
      [null, 'Low', null, 4],
    ]);
    const audit = await auditEntries(ctx, { entityId: override.id });
    expect(audit.map((a) => a.action_type)).toEqual(['create', 'delete']);
    expect(audit[1]).toMatchObject({ enterprise_id: enterprise.id, entity_type: 'risk_appetite' });
  });

  it('the enterprise default cannot be deleted: 409 INVALID_STATE, nothing written (D7.4)', async () => {
    const { enterprise, admin, defaultAppetite } = await createGovernedEnterprise(ctx);
    const before = await countAuditEntries(ctx, enterprise.id);
    const response = await call(admin, 'DELETE', `${APPETITE}/${defaultAppetite.id}`);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: 'INVALID_STATE' });
    expect(await countAuditEntries(ctx, enterprise.id)).toBe(before);
  });

  it("an unknown id, an already deleted one and another enterprise's answer 404; a malformed id 400 (D2.2)", async () => {
    const { admin, entity } = await createGovernedEnterprise(ctx);
    const other = await createGovernedEnterprise(ctx);
    const override = (await call(admin, 'POST', APPETITE, { risk_level: 'Low', threshold_value: 4, legal_entity_id: entity.id })).json().data;
    expect((await call(other.admin, 'DELETE', `${APPETITE}/${override.id}`)).statusCode).toBe(404);
    expect((await call(admin, 'DELETE', `${APPETITE}/${override.id}`)).statusCode).toBe(200);
    expect((await call(admin, 'DELETE', `${APPETITE}/${override.id}`)).statusCode).toBe(404);
    expect((await call(admin, 'DELETE', `${APPETITE}/not-a-uuid`)).statusCode).toBe(400);
  });

  it('refuses assessors and reviewers with 403 (D5)', async () => {
    const { enterprise, admin, entity } = await createGovernedEnterprise(ctx);
    const override = (await call(admin, 'POST', APPETITE, { risk_level: 'Low', threshold_value: 4, legal_entity_id: entity.id })).json().data;
    const reviewer = await createUser(ctx, { role: 'reviewer', enterpriseId: enterprise.id });
    await expectAccessDenied(ctx, reviewer, await call(reviewer, 'DELETE', `${APPETITE}/${override.id}`), 'governance.risk_appetite.delete');
  });

  it('history: every change newest first with who, when and reason; filters by record and legal entity (D7.4)', async () => {
    const { admin, entity, defaultAppetite } = await createGovernedEnterprise(ctx);
    const second = await createLegalEntity(ctx, admin.enterpriseId!);
    await call(admin, 'POST', APPETITE, { risk_level: 'High', threshold_value: 12, reason: 'Growth year' });
    const a = (await call(admin, 'POST', APPETITE, { risk_level: 'Low', threshold_value: 4, legal_entity_id: entity.id })).json().data;
    await call(admin, 'POST', APPETITE, { risk_level: 'Medium', threshold_value: 6, legal_entity_id: second.id });
    await call(admin, 'POST', APPETITE, { risk_level: 'Medium', threshold_value: 5, legal_entity_id: entity.id, reason: 'Audit finding' });
    const all = (await call(admin, 'GET', `${APPETITE}/history`)).json().data;
    expect(all.map((h: any) => h.new_threshold)).toEqual([5, 6, 4, 12]);
    expect(all[0]).toEqual({
      id: expect.any(String), risk_appetite_id: a.id, legal_entity_id: entity.id, business_unit_id: null,
      previous_level: 'Low', new_level: 'Medium', previous_threshold: 4, new_threshold: 5,
      changed_by: admin.id, changed_by_name: admin.fullName, changed_at: expect.stringMatching(/Z$/), reason: 'Audit finding',
    });
    expect(all[3]).toMatchObject({ risk_appetite_id: defaultAppetite.id, previous_threshold: 9, new_threshold: 12, reason: 'Growth year' });
    expect((await call(admin, 'GET', `${APPETITE}/history?risk_appetite_id=${a.id}`)).json().data.map((h: any) => h.new_threshold)).toEqual([5, 4]);
    expect((await call(admin, 'GET', `${APPETITE}/history?legal_entity_id=${second.id}`)).json().data.map((h: any) => h.new_threshold)).toEqual([6]);
  });

  it('history scope: an assessor sees the default and assigned entities; an unassigned filter answers 403 (D5, D10.1)', async () => {
    const { enterprise, admin, entity } = await createGovernedEnterprise(ctx);
    const second = await createLegalEntity(ctx, enterprise.id);
    await call(admin, 'POST', APPETITE, { risk_level: 'High', threshold_value: 12 });
    await call(admin, 'POST', APPETITE, { risk_level: 'Low', threshold_value: 4, legal_entity_id: entity.id });
    await call(admin, 'POST', APPETITE, { risk_level: 'Medium', threshold_value: 6, legal_entity_id: second.id });
    const assessor = await createUser(ctx, { role: 'assessor', enterpriseId: enterprise.id });
    await assignEntity(ctx, assessor, entity.id);
    expect((await call(assessor, 'GET', `${APPETITE}/history`)).json().data.map((h: any) => h.new_threshold)).toEqual([4, 12]);
    await expectAccessDenied(ctx, assessor, await call(assessor, 'GET', `${APPETITE}/history?legal_entity_id=${second.id}`), 'governance.risk_appetite.history');
    const superAdmin = await createUser(ctx, { role: 'super_admin' });
    await expectAccessDenied(ctx, superAdmin, await call(superAdmin, 'GET', `${APPETITE}/history`));
  });
});
