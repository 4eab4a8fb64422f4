import { describe, expect, it } from 'vitest';
import { createRiskAppetiteService } from '../../src/modules/governance/risk-appetite.service.js';
import { createTestContext } from '../support/app.js';
import { sessionHeaders } from '../support/api.js';
import { auditEntries, countAuditEntries, expectAccessDenied } from '../support/audit.js';
import { createBusinessUnit, createLegalEntity, createUser } from '../support/factories.js';
import { createGovernedEnterprise } from '../support/governance-factories.js';

/** POST /api/v1/governance/risk-appetite (4.5, D6.9, D7.4, D7.5). */
describe('risk appetite upsert', async () => {
  const ctx = await createTestContext();
  const headers = sessionHeaders(ctx);
  const post = async (user: { id: string; email: string }, payload: Record<string, unknown>) =>
    ctx.app.inject({ method: 'POST', url: '/api/v1/governance/risk-appetite', headers: await headers(user as never), payload });

  it('creates an entity-level override with 201, then updates the same record with 200 (one record per scope)', async () => {
    const { enterprise, admin, entity } = await createGovernedEnterprise(ctx);
    const created = await post(admin, { risk_level: 'Low', threshold_value: 4, description: 'Cautious', legal_entity_id: entity.id, reason: 'Board decision' });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      message: expect.any(String),
      data: { id: expect.any(String), risk_level: 'Low', threshold_value: 4, description: 'Cautious', legal_entity_id: entity.id, business_unit_id: null, updated_by: admin.id, updated_at: expect.stringMatching(/Z$/) },
    });
    const updated = await post(admin, { risk_level: 'High', threshold_value: 12, legal_entity_id: entity.id });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().data).toMatchObject({ id: created.json().data.id, risk_level: 'High', threshold_value: 12, description: null });
    const records = await ctx.db.selectFrom('risk_appetites').selectAll().where('enterprise_id', '=', enterprise.id).execute();
    expect(records).toHaveLength(2);
  });

  it('updates the enterprise default with 200 when no scope is given (D6.9)', async () => {
    const { admin, defaultAppetite } = await createGovernedEnterprise(ctx);
    const response = await post(admin, { risk_level: 'High', threshold_value: 15, legal_entity_id: null, business_unit_id: null });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ id: defaultAppetite.id, threshold_value: 15, legal_entity_id: null });
  });

  it('writes a history entry (previous null on creation) and an audit entry in the same transaction (D7.4, D7.5)', async () => {
    const { enterprise, admin, entity, unit } = await createGovernedEnterprise(ctx);
    const created = (await post(admin, { risk_level: 'Medium', threshold_value: 6, legal_entity_id: entity.id, business_unit_id: unit.id, reason: 'New unit' })).json().data;
    await post(admin, { risk_level: 'High', threshold_value: 10, legal_entity_id: entity.id, business_unit_id: unit.id });
    const history = await ctx.db.selectFrom('risk_appetite_history').selectAll().where('risk_appetite_id', '=', created.id).orderBy('changed_at').execute();
    expect(history.map((h) => [h.previous_level, h.new_level, h.previous_threshold, h.new_threshold, h.reason, h.changed_by])).toEqual([
      [null, 'Medium', null, 6, 'New unit', admin.id],
      ['Medium', 'High', 6, 10, null, admin.id],
    ]);
    const audit = await auditEntries(ctx, { entityType: 'risk_appetite', entityId: created.id });
    expect(audit.map((a) => a.action_type)).toEqual(['create', 'update']);
    expect(audit[1]).toMatchObject({ enterprise_id: enterprise.id, user_id: admin.id, status: 'success' });
    expect(audit[1]!.action_details).toMatchObject({
      operation: 'governance.risk_appetite.upsert',
      previous: { risk_level: 'Medium', threshold_value: 6 },
      new: { risk_level: 'High', threshold_value: 10 },
    });
  });

  it('concurrent upserts of one new scope leave one record and two history entries', async () => {
    const { enterprise, admin, entity } = await createGovernedEnterprise(ctx);
    const responses = await Promise.all([
      post(admin, { risk_level: 'Low', threshold_value: 3, legal_entity_id: entity.id }),
      post(admin, { risk_level: 'High', threshold_value: 14, legal_entity_id: entity.id }),
    ]);
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 201]);
    const records = await ctx.db.selectFrom('risk_appetites').selectAll().where('enterprise_id', '=', enterprise.id).where('legal_entity_id', '=', entity.id).execute();
    expect(records).toHaveLength(1);
    const history = await ctx.db.selectFrom('risk_appetite_history').selectAll().where('risk_appetite_id', '=', records[0]!.id).orderBy('changed_at').execute();
    expect(history).toHaveLength(2);
    expect(history[0]!.previous_level).toBeNull();
    // The second change starts from what the first left, and the record holds the second's values.
    expect(history[1]!.previous_level).toBe(history[0]!.new_level);
    expect(records[0]!.risk_level).toBe(history[1]!.new_level);
  });

  it('the applicable appetite of a scope follows a change (D6.9)', async () => {
    const { enterprise, admin, entity, unit } = await createGovernedEnterprise(ctx);
    const service = createRiskAppetiteService({ db: ctx.db });
    expect((await service.applicableAppetite(enterprise.id, entity.id, unit.id)).threshold_value).toBe(9);
    await post(admin, { risk_level: 'Medium', threshold_value: 7, legal_entity_id: entity.id });
    expect((await service.applicableAppetite(enterprise.id, entity.id, unit.id)).threshold_value).toBe(7);
    const unitLevel = (await post(admin, { risk_level: 'Low', threshold_value: 4, legal_entity_id: entity.id, business_unit_id: unit.id })).json().data;
    expect((await service.applicableAppetite(enterprise.id, entity.id, unit.id)).threshold_value).toBe(4);
    await ctx.app.inject({ method: 'DELETE', url: `/api/v1/governance/risk-appetite/${unitLevel.id}`, headers: await headers(admin) });
    expect((await service.applicableAppetite(enterprise.id, entity.id, unit.id)).threshold_value).toBe(7);
  });

  it.each([
    [{ threshold_value: 9 }, 'risk_level'],
    [{ risk_level: 'Extreme', threshold_value: 9 }, 'risk_level'],
    [{ risk_level: 'Low', threshold_value: 0 }, 'threshold_value'],
    [{ risk_level: 'Low', threshold_value: 26 }, 'threshold_value'],
    [{ risk_level: 'Low', threshold_value: 4.5 }, 'threshold_value'],
    [{ risk_level: 'Low', threshold_value: 4, colour: 'red' }, ''],
  ])('refuses a body that breaks its schema with 422 (%j)', async (payload, field) => {
    const { admin } = await createGovernedEnterprise(ctx);
    const response = await post(admin, payload);
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    if (field !== '') expect(JSON.stringify(response.json().details.fields)).toContain(field);
  });

  it('a business_unit_id requires its legal_entity_id (422), and must belong to it (400 INVALID_REFERENCE) (D7.4)', async () => {
    const { enterprise, admin, unit } = await createGovernedEnterprise(ctx);
    const alone = await post(admin, { risk_level: 'Low', threshold_value: 4, business_unit_id: unit.id });
    expect(alone.statusCode).toBe(422);
    const otherEntity = await createLegalEntity(ctx, enterprise.id);
    const mismatched = await post(admin, { risk_level: 'Low', threshold_value: 4, legal_entity_id: otherEntity.id, business_unit_id: unit.id });
    expect(mismatched.statusCode).toBe(400);
    expect(mismatched.json()).toMatchObject({ code: 'INVALID_REFERENCE' });
  });

  it("refuses another enterprise's legal entity as INVALID_REFERENCE and writes nothing", async () => {
    const { enterprise, admin } = await createGovernedEnterprise(ctx);
    const foreign = await createGovernedEnterprise(ctx);
    const before = await countAuditEntries(ctx, enterprise.id);
    const response = await post(admin, { risk_level: 'Low', threshold_value: 4, legal_entity_id: foreign.entity.id });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'INVALID_REFERENCE' });
    expect(await countAuditEntries(ctx, enterprise.id)).toBe(before);
    const unitOfForeign = await createBusinessUnit(ctx, foreign.enterprise.id, foreign.entity.id);
    expect((await post(admin, { risk_level: 'Low', threshold_value: 4, legal_entity_id: foreign.entity.id, business_unit_id: unitOfForeign.id })).statusCode).toBe(400);
  });

  it('refuses assessors, reviewers and super admins with 403 (D5)', async () => {
    const { enterprise, entity } = await createGovernedEnterprise(ctx);
    for (const role of ['assessor', 'reviewer'] as const) {
      const user = await createUser(ctx, { role, enterpriseId: enterprise.id });
      await expectAccessDenied(ctx, user, await post(user, { risk_level: 'Low', threshold_value: 4, legal_entity_id: entity.id }), 'governance.risk_appetite.upsert');
    }
    const superAdmin = await createUser(ctx, { role: 'super_admin' });
    await expectAccessDenied(ctx, superAdmin, await post(superAdmin, { risk_level: 'Low', threshold_value: 4 }));
  });
});
