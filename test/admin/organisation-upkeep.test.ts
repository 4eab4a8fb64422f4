import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { auditEntries } from '../support/audit.js';
import { createBra } from '../support/bras-factories.js';
import { cast } from '../support/cast.js';
import { createBusinessUnit, createLegalEntity } from '../support/factories.js';

describe('organisation upkeep: rename, describe and archive legal entities and business units', async () => {
  const ctx = await createTestContext();
  const w = await cast(ctx);
  const { call } = w;
  const newBra = (legalEntityId: string, businessUnitId?: string) =>
    call(w.admin, 'POST', '/bras', { name: `BRA ${crypto.randomUUID().slice(0, 6)}`, legal_entity_id: legalEntityId, ...(businessUnitId ? { business_unit_id: businessUnitId } : {}), period: 'FY2026', assessor: 'Olivia' });

  it('PATCH /legal-entities/{id}: renames and describes, audited with before and after', async () => {
    const entity = await createLegalEntity(ctx, w.enterprise.id, 'Old Name Ltd');
    const response = await call(w.admin, 'PATCH', `/legal-entities/${entity.id}`, { name: 'New Name Ltd', description: 'Holding' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({ id: entity.id, name: 'New Name Ltd', description: 'Holding', archived_at: null });
    const entries = await auditEntries(ctx, { entityId: entity.id, action: 'update' });
    expect(entries.at(-1)!.action_details).toMatchObject({ changes: { name: 'New Name Ltd', description: 'Holding' }, previous: { name: 'Old Name Ltd', description: null } });
  });

  it('PATCH /legal-entities/{id}: a name of another active entity is 409; an empty body 422; roles and tenants refused', async () => {
    const a = await createLegalEntity(ctx, w.enterprise.id);
    const b = await createLegalEntity(ctx, w.enterprise.id);
    expect((await call(w.admin, 'PATCH', `/legal-entities/${b.id}`, { name: a.name.toUpperCase() })).json().code).toBe('CONFLICT');
    expect((await call(w.admin, 'PATCH', `/legal-entities/${b.id}`, {})).statusCode).toBe(422);
    expect((await call(w.admin, 'PATCH', `/legal-entities/${b.id}`, { status: 'x' })).statusCode).toBe(422);
    for (const user of [w.assessor, w.reviewer, w.superAdmin]) expect((await call(user, 'PATCH', `/legal-entities/${b.id}`, { name: 'X' })).statusCode).toBe(403);
    expect((await call(w.otherAdmin, 'PATCH', `/legal-entities/${b.id}`, { name: 'X' })).statusCode).toBe(404);
    expect((await call(w.otherAdmin, 'POST', `/legal-entities/${b.id}/archive`)).statusCode).toBe(404);
  });

  it('archiving an entity is refused (409, naming them) while a draft, in_progress or under_review BRA uses it', async () => {
    const entity = await createLegalEntity(ctx, w.enterprise.id);
    const live = await createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: entity.id, status: 'under_review', name: 'Live Review BRA' });
    await createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: entity.id, status: 'approved' });
    const refused = await call(w.admin, 'POST', `/legal-entities/${entity.id}/archive`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'INVALID_STATE', details: { bras: [{ id: live.id, name: 'Live Review BRA', status: 'under_review' }] } });
    expect(refused.json().error).toContain('Live Review BRA');
    expect((await ctx.db.selectFrom('legal_entities').select('archived_at').where('id', '=', entity.id).executeTakeFirstOrThrow()).archived_at).toBeNull();
  });

  it('an archived entity and its units leave the pickers and new BRAs, stay on old ones, and free their name', async () => {
    const entity = await createLegalEntity(ctx, w.enterprise.id, `Retired ${crypto.randomUUID().slice(0, 6)}`);
    const unit = await createBusinessUnit(ctx, w.enterprise.id, entity.id);
    const old = await createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: entity.id, businessUnitId: unit.id, status: 'approved' });
    const archived = await call(w.admin, 'POST', `/legal-entities/${entity.id}/archive`);
    expect(archived.statusCode, archived.body).toBe(200);
    expect(archived.json().data.archived_at).toEqual(expect.any(String));

    const picker = (await call(w.admin, 'GET', '/legal-entities')).json().data.map((e: { id: string }) => e.id);
    expect(picker).not.toContain(entity.id);
    const all = (await call(w.admin, 'GET', '/legal-entities?include_archived=true')).json().data.find((e: { id: string }) => e.id === entity.id);
    expect(all.archived_at).toEqual(expect.any(String));
    expect(all.business_units).toEqual([expect.objectContaining({ id: unit.id, archived_at: expect.any(String) })]);

    const refused = await newBra(entity.id);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe('INVALID_REFERENCE');
    const oldView = (await call(w.admin, 'GET', `/bras/${old.id}`)).json().data;
    expect(oldView.legal_entity).toEqual({ id: entity.id, name: entity.name });
    expect(oldView.business_unit).toEqual({ id: unit.id, name: unit.name });

    expect((await call(w.admin, 'POST', '/admin/legal-entities', { name: entity.name })).statusCode).toBe(201);
    expect((await call(w.admin, 'POST', `/legal-entities/${entity.id}/archive`)).json().code).toBe('INVALID_STATE');
    expect((await call(w.admin, 'PATCH', `/legal-entities/${entity.id}`, { name: 'Revived' })).json().code).toBe('INVALID_STATE');
    expect((await call(w.admin, 'POST', `/admin/legal-entities/${entity.id}/business-units`, { name: 'Late' })).json().code).toBe('INVALID_STATE');
    // Archiving is recorded as `delete` (interface 2.9).
    const entries = await auditEntries(ctx, { entityId: entity.id, action: 'delete' });
    expect(entries.at(-1)!.action_details).toMatchObject({ change: 'archived', business_units_archived: [unit.id] });
  });

  it('business units: PATCH renames (409 for a sibling’s name), archive is refused while a live BRA uses the unit', async () => {
    const unit = await createBusinessUnit(ctx, w.enterprise.id, w.entity.id, `Unit ${crypto.randomUUID().slice(0, 6)}`);
    const renamed = await call(w.admin, 'PATCH', `/business-units/${unit.id}`, { name: `${unit.name} Renamed`, description: 'Cards' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().data).toMatchObject({ id: unit.id, legal_entity_id: w.entity.id, name: `${unit.name} Renamed`, description: 'Cards' });
    expect((await call(w.admin, 'PATCH', `/business-units/${unit.id}`, { name: w.unit.name })).json().code).toBe('CONFLICT');
    expect((await auditEntries(ctx, { entityId: unit.id, action: 'update' })).at(-1)).toMatchObject({
      entity_type: 'business_unit',
      action_details: { legal_entity_id: w.entity.id, changes: { name: `${unit.name} Renamed`, description: 'Cards' }, previous: { name: unit.name, description: null } },
    });

    const live = await createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: w.entity.id, businessUnitId: unit.id, status: 'in_progress' });
    const refused = await call(w.admin, 'POST', `/business-units/${unit.id}/archive`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().details.bras).toEqual([{ id: live.id, name: live.name, status: 'in_progress' }]);
    await ctx.db.updateTable('bras').set({ status: 'cancelled' }).where('id', '=', live.id).execute();
    expect((await call(w.admin, 'POST', `/business-units/${unit.id}/archive`)).statusCode).toBe(200);
    expect((await auditEntries(ctx, { entityId: unit.id, action: 'delete' })).at(-1)).toMatchObject({ entity_type: 'business_unit', action_details: { legal_entity_id: w.entity.id } });
    const listed = (await call(w.admin, 'GET', '/legal-entities')).json().data.find((e: { id: string }) => e.id === w.entity.id);
    expect(listed.business_units.map((u: { id: string }) => u.id)).not.toContain(unit.id);
    expect((await newBra(w.entity.id, unit.id)).json().code).toBe('INVALID_REFERENCE');
    // The entity itself is unaffected.
    expect((await newBra(w.entity.id)).statusCode).toBe(201);
  });

  it('business units: other roles 403, another enterprise 404', async () => {
    const foreignUnit = await createBusinessUnit(ctx, w.other.id, w.otherEntity.id);
    expect((await call(w.admin, 'PATCH', `/business-units/${foreignUnit.id}`, { name: 'X' })).statusCode).toBe(404);
    expect((await call(w.admin, 'POST', `/business-units/${foreignUnit.id}/archive`)).statusCode).toBe(404);
    for (const user of [w.assessor, w.reviewer]) {
      expect((await call(user, 'PATCH', `/business-units/${w.unit.id}`, { name: 'X' })).statusCode).toBe(403);
      expect((await call(user, 'POST', `/business-units/${w.unit.id}/archive`)).statusCode).toBe(403);
      expect((await call(user, 'POST', `/legal-entities/${w.entity.id}/archive`)).statusCode).toBe(403);
    }
  });
});
