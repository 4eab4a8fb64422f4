import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { auditEntries, countAuditEntries } from '../support/audit.js';
import { createBra, insertAction, insertActions, utcDate } from '../support/actions-factories.js';
import { assignEntity, createEnterprise, createLegalEntity, createUser, tokenFor } from '../support/factories.js';
import { calls } from '../support/cast.js';

/** POST /mitigation-actions/bulk-update (4.4): 1 to 100 ids, all or nothing (D7.3, D10.2). */
describe('bulk update of mitigation actions (4.4, D7.3, D10.2)', async () => {
  const ctx = await createTestContext();
  const { call } = calls(ctx);
  const enterprise = await createEnterprise(ctx);
  const admin = await createUser(ctx, { role: 'admin', enterpriseId: enterprise.id });
  const token = await tokenFor(ctx, admin);
  const bulk = (payload: unknown, as = token) => call(as, 'POST', '/mitigation-actions/bulk-update', payload);
  const fresh = (count: number, values: Parameters<typeof insertAction>[1] extends infer V ? Partial<V> : never = {}) =>
    Promise.all(Array.from({ length: count }, () => insertAction(ctx, { enterpriseId: enterprise.id, status: 'created', owner: 'Ops', ...values })));
  const rowsOf = (ids: string[]) => ctx.db.selectFrom('mitigation_actions').selectAll().where('id', 'in', ids).orderBy('id').execute();

  /** The named rows and the enterprise's trail are exactly as they were. */
  async function expectNothingChanged(ids: string[], before: { rows: unknown; audit: number }) {
    expect(await rowsOf(ids)).toEqual(before.rows);
    expect(await countAuditEntries(ctx, enterprise.id)).toBe(before.audit);
  }
  const snapshot = async (ids: string[]) => ({ rows: await rowsOf(ids), audit: await countAuditEntries(ctx, enterprise.id) });

  it('applies the updates to every named action: 200 with updated_count and updated_ids, one audit entry per action', async () => {
    const actions = await fresh(3, { dueDate: utcDate(-1) });
    const ids = actions.map((action) => action.id);
    const response = await bulk({ action_ids: ids, updates: { status: 'completed', owner: 'Risk Office' } });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ data: { updated_count: 3, updated_ids: ids }, message: expect.any(String) });
    for (const row of await rowsOf(ids)) {
      expect(row).toMatchObject({ status: 'completed', owner: 'Risk Office' });
      expect(row.updated_at.getTime()).toBeGreaterThan(actions[0]!.updated_at.getTime());
    }
    for (const id of ids) {
      const entries = await auditEntries(ctx, { entityId: id });
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ action_type: 'update', entity_type: 'mitigation_action', user_id: admin.id });
      expect(entries[0]!.action_details).toEqual({
        operation: 'actions.bulk_update',
        changes: { owner: { from: 'Ops', to: 'Risk Office' }, status: { from: 'created', to: 'completed' } },
        bulk_update: { size: 3 },
      });
    }
    const listed = (await call(token, 'GET', '/mitigation-actions?overdue_only=true&page_size=100')).json().data.map((a: { id: string }) => a.id);
    for (const id of ids) expect(listed).not.toContain(id);
  });

  it('an unknown id: 404 naming it, and nothing changes', async () => {
    const ids = (await fresh(2)).map((action) => action.id);
    const unknown = randomUUID();
    const before = await snapshot(ids);
    const response = await bulk({ action_ids: [...ids, unknown], updates: { status: 'in_progress' } });
    expect(response.statusCode, response.body).toBe(404);
    expect(response.json()).toMatchObject({ code: 'NOT_FOUND', details: { action_ids: [unknown] } });
    await expectNothingChanged(ids, before);
  });

  it("an id of another enterprise: 404, and nothing changes (cross-tenant)", async () => {
    const ids = (await fresh(2)).map((action) => action.id);
    const foreign = await insertAction(ctx, { enterpriseId: (await createEnterprise(ctx)).id, status: 'created' });
    const before = await snapshot([...ids, foreign.id]);
    const response = await bulk({ action_ids: [ids[0], foreign.id, ids[1]], updates: { priority: 'critical' } });
    expect(response.statusCode, response.body).toBe(404);
    await expectNothingChanged([...ids, foreign.id], before);
  });

  it("an id outside an assessor's scope: 404 (not 403), and nothing changes (D7.3)", async () => {
    const entity = await createLegalEntity(ctx, enterprise.id);
    const assessor = await createUser(ctx, { role: 'assessor', enterpriseId: enterprise.id });
    await assignEntity(ctx, assessor, entity.id);
    const bra = await createBra(ctx, { enterpriseId: enterprise.id, legalEntityId: entity.id });
    const inScope = await fresh(2, { braId: bra.id });
    const outOfScope = await insertAction(ctx, { enterpriseId: enterprise.id, status: 'created' });
    const ids = [...inScope.map((action) => action.id), outOfScope.id];
    const before = await snapshot(ids);
    const assessorToken = await tokenFor(ctx, assessor);
    const response = await bulk({ action_ids: ids, updates: { status: 'completed' } }, assessorToken);
    expect(response.statusCode, response.body).toBe(404);
    expect(response.json()).toMatchObject({ code: 'NOT_FOUND', details: { action_ids: [outOfScope.id] } });
    await expectNothingChanged(ids, before);
    // Within scope the same assessor succeeds.
    const allowed = await bulk({ action_ids: inScope.map((action) => action.id), updates: { status: 'completed' } }, assessorToken);
    expect(allowed.statusCode, allowed.body).toBe(200);
  });

  it('an archived id: 409 INVALID_STATE naming it, and nothing changes (D10.2)', async () => {
    const ids = (await fresh(2)).map((action) => action.id);
    const archived = await insertAction(ctx, { enterpriseId: enterprise.id, archived: true });
    const before = await snapshot([...ids, archived.id]);
    const response = await bulk({ action_ids: [...ids, archived.id], updates: { status: 'completed' } });
    expect(response.statusCode, response.body).toBe(409);
    expect(response.json()).toMatchObject({ code: 'INVALID_STATE', details: { action_ids: [archived.id] } });
    await expectNothingChanged([...ids, archived.id], before);
  });

  it('an unknown id wins over an archived one: 404 (nothing of either is changed)', async () => {
    const archived = await insertAction(ctx, { enterpriseId: enterprise.id, archived: true });
    const response = await bulk({ action_ids: [archived.id, randomUUID()], updates: { status: 'completed' } });
    expect(response.statusCode, response.body).toBe(404);
  });

  it('takes exactly 100 ids', async () => {
    await insertActions(ctx, Array.from({ length: 100 }, () => ({ enterpriseId: enterprise.id, actionType: 'Hundred' })));
    const ids = (await ctx.db.selectFrom('mitigation_actions').select('id').where('action_type', '=', 'Hundred').execute()).map((row) => row.id);
    const response = await bulk({ action_ids: ids, updates: { priority: 'low' } });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data.updated_count).toBe(100);
    expect(await auditEntries(ctx, { entityType: 'mitigation_action', action: 'update' }).then((rows) => rows.filter((row) => ids.includes(row.entity_id!)))).toHaveLength(100);
  });

  it('racing an archive: the bulk update applies to all or to none of its ids, never to part (row locks)', async () => {
    for (let round = 0; round < 4; round += 1) {
      const ids = (await fresh(3)).map((action) => action.id);
      const [updated, archived] = await Promise.all([
        bulk({ action_ids: ids, updates: { owner: `Round ${round}` } }),
        call(token, 'POST', `/mitigation-actions/${ids[2]}/archive`),
      ]);
      expect(archived.statusCode, archived.body).toBe(200);
      const owners = (await rowsOf(ids)).map((row) => row.owner);
      if (updated.statusCode === 200) expect(owners).toEqual(ids.map(() => `Round ${round}`));
      else {
        expect(updated.statusCode, updated.body).toBe(409);
        expect(owners).toEqual(['Ops', 'Ops', 'Ops']);
      }
    }
  });

  it.each([
    ['0 ids', () => ({ action_ids: [], updates: { status: 'completed' } }), 'action_ids'],
    ['101 ids', () => ({ action_ids: Array.from({ length: 101 }, () => randomUUID()), updates: { status: 'completed' } }), 'action_ids'],
    ['the same id twice', () => { const id = randomUUID(); return { action_ids: [id, id], updates: { status: 'completed' } }; }, 'action_ids'],
    ['a malformed id', () => ({ action_ids: ['nope'], updates: { status: 'completed' } }), 'action_ids[0]'],
    ['no updates', () => ({ action_ids: [randomUUID()], updates: {} }), 'updates'],
    ['missing updates', () => ({ action_ids: [randomUUID()] }), 'updates'],
    ['a field bulk update does not take', () => ({ action_ids: [randomUUID()], updates: { bra_id: randomUUID() } }), 'updates.bra_id'],
    ['an unknown status', () => ({ action_ids: [randomUUID()], updates: { status: 'closed' } }), 'updates.status'],
  ])('refuses %s with 422 VALIDATION_ERROR (D7.3, D2.3)', async (_name, payload, field) => {
    const before = await countAuditEntries(ctx, enterprise.id);
    const response = await bulk(payload());
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(response.json().details.fields.map((f: { field: string }) => f.field)).toContain(field);
    expect(await countAuditEntries(ctx, enterprise.id)).toBe(before);
  });
});
