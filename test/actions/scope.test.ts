import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { auditEntries, expectAccessDenied } from '../support/audit.js';
import { calls } from '../support/cast.js';
import { createBra, insertAction } from '../support/actions-factories.js';
import {
  assignEntity,
  createBusinessUnit,
  createEnterprise,
  createLegalEntity,
  createUser,
  type TestUser,
} from '../support/factories.js';

/** D5 for mitigation actions: who sees which actions (in SQL: pages and totals) and who may change them. */
describe('mitigation actions by role (D5, D10.1)', async () => {
  const ctx = await createTestContext();
  const { call, tokenOf } = calls(ctx);
  const enterprise = await createEnterprise(ctx);
  const entityOne = await createLegalEntity(ctx, enterprise.id);
  const unitA = await createBusinessUnit(ctx, enterprise.id, entityOne.id);
  const entityTwo = await createLegalEntity(ctx, enterprise.id);

  const admin = await createUser(ctx, { role: 'admin', enterpriseId: enterprise.id });
  const entityAssessor = await createUser(ctx, { role: 'assessor', enterpriseId: enterprise.id });
  await assignEntity(ctx, entityAssessor, entityOne.id);
  const unitAssessor = await createUser(ctx, { role: 'assessor', enterpriseId: enterprise.id });
  await assignEntity(ctx, unitAssessor, entityOne.id, unitA.id);
  const reviewer = await createUser(ctx, { role: 'reviewer', enterpriseId: enterprise.id });
  await assignEntity(ctx, reviewer, entityTwo.id);
  const unassignedAssessor = await createUser(ctx, { role: 'assessor', enterpriseId: enterprise.id });
  const superAdmin = await createUser(ctx, { role: 'super_admin' });

  const braEntityOne = await createBra(ctx, { enterpriseId: enterprise.id, legalEntityId: entityOne.id });
  const braUnitA = await createBra(ctx, { enterpriseId: enterprise.id, legalEntityId: entityOne.id, businessUnitId: unitA.id });
  const braEntityTwo = await createBra(ctx, { enterpriseId: enterprise.id, legalEntityId: entityTwo.id });

  const at = (minute: number) => new Date(Date.UTC(2026, 0, 2, 9, minute));
  const onEntityOne = await insertAction(ctx, { enterpriseId: enterprise.id, braId: braEntityOne.id, createdBy: admin.id, createdAt: at(1) });
  const onUnitA = await insertAction(ctx, { enterpriseId: enterprise.id, braId: braUnitA.id, createdBy: admin.id, createdAt: at(2) });
  const onEntityTwo = await insertAction(ctx, { enterpriseId: enterprise.id, braId: braEntityTwo.id, createdBy: admin.id, createdAt: at(3) });
  const unlinkedByAdmin = await insertAction(ctx, { enterpriseId: enterprise.id, createdBy: admin.id, createdAt: at(4) });
  const unlinkedByEntityAssessor = await insertAction(ctx, { enterpriseId: enterprise.id, createdBy: entityAssessor.id, createdAt: at(5) });
  const unlinkedByUnitAssessor = await insertAction(ctx, { enterpriseId: enterprise.id, createdBy: unitAssessor.id, createdAt: at(6) });

  const as = async (user: TestUser, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
    call(await tokenOf(user), method, url, payload);
  const listIds = async (user: TestUser, query = '') => {
    const response = await as(user, 'GET', `/mitigation-actions${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.map((item: { id: string }) => item.id);
  };
  const newAction = { action: 'Review access rights', owner: 'IT Security', priority: 'high', action_type: 'Detective', due_date: '2027-01-31' };

  describe('GET /mitigation-actions', () => {
    it('a client admin sees every action of the enterprise', async () => {
      expect(await listIds(admin)).toEqual(
        [unlinkedByUnitAssessor, unlinkedByEntityAssessor, unlinkedByAdmin, onEntityTwo, onUnitA, onEntityOne].map((a) => a.id),
      );
    });

    it('an assessor of a whole entity sees the actions of its BRAs (units included) and the unlinked ones they created', async () => {
      expect(await listIds(entityAssessor)).toEqual([unlinkedByEntityAssessor.id, onUnitA.id, onEntityOne.id]);
    });

    it('an assessor of one business unit sees only the BRAs of that unit, plus their own unlinked actions', async () => {
      expect(await listIds(unitAssessor)).toEqual([unlinkedByUnitAssessor.id, onUnitA.id]);
    });

    it('a reviewer sees the actions of BRAs of assigned entities, and no unlinked action', async () => {
      expect(await listIds(reviewer)).toEqual([onEntityTwo.id]);
    });

    it('an assessor without assignments sees nothing of others', async () => {
      expect(await listIds(unassignedAssessor)).toEqual([]);
    });

    it('the scope is in the query: totals and pages count only what the caller may see', async () => {
      const response = await as(entityAssessor, 'GET', '/mitigation-actions?page_size=2&page=2');
      expect(response.json()).toMatchObject({ data: [{ id: onEntityOne.id }], pagination: { total: 3, total_pages: 2 } });
    });

    it('filtering on a BRA outside the assignments is 403; on an assigned one it lists its actions (D10.1)', async () => {
      const refused = await as(unitAssessor, 'GET', `/mitigation-actions?bra_id=${braEntityTwo.id}`);
      await expectAccessDenied(ctx, unitAssessor, refused, 'actions.list');
      expect(await listIds(unitAssessor, `?bra_id=${braUnitA.id}`)).toEqual([onUnitA.id]);
      expect(await listIds(reviewer, `?bra_id=${braEntityTwo.id}`)).toEqual([onEntityTwo.id]);
    });

    it('a super admin is refused with 403 and an access_denied entry (D5)', async () => {
      await expectAccessDenied(ctx, superAdmin, await as(superAdmin, 'GET', '/mitigation-actions'), 'actions.list');
    });
  });

  describe('changes', () => {
    it('a reviewer may not create, change, bulk-update or archive: 403 with access_denied, nothing written', async () => {
      const attempts = [
        ['actions.create', () => as(reviewer, 'POST', '/mitigation-actions', { ...newAction, bra_id: braEntityTwo.id })],
        ['actions.update', () => as(reviewer, 'PATCH', `/mitigation-actions/${onEntityTwo.id}`, { status: 'completed' })],
        ['actions.bulk_update', () => as(reviewer, 'POST', '/mitigation-actions/bulk-update', { action_ids: [onEntityTwo.id], updates: { status: 'completed' } })],
        ['actions.archive', () => as(reviewer, 'POST', `/mitigation-actions/${onEntityTwo.id}/archive`)],
      ] as const;
      for (const [operation, attempt] of attempts) await expectAccessDenied(ctx, reviewer, await attempt(), operation);
      expect(await auditEntries(ctx, { userId: reviewer.id, entityType: 'mitigation_action' })).toEqual([]);
      const row = await ctx.db.selectFrom('mitigation_actions').selectAll().where('id', '=', onEntityTwo.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'created', archived: false });
    });

    it('a super admin may not create actions (D5)', async () => {
      await expectAccessDenied(ctx, superAdmin, await as(superAdmin, 'POST', '/mitigation-actions', newAction), 'actions.create');
    });

    it('an assessor creates actions on assigned BRAs and unlinked ones, which then appear in their list only', async () => {
      const linked = await as(entityAssessor, 'POST', '/mitigation-actions', { ...newAction, bra_id: braUnitA.id });
      expect(linked.statusCode, linked.body).toBe(201);
      const unlinked = await as(entityAssessor, 'POST', '/mitigation-actions', newAction);
      expect(unlinked.statusCode, unlinked.body).toBe(201);
      expect(await listIds(entityAssessor)).toEqual(expect.arrayContaining([linked.json().data.id, unlinked.json().data.id]));
      const otherAssessorSees = await listIds(unitAssessor);
      expect(otherAssessorSees).toContain(linked.json().data.id);
      expect(otherAssessorSees).not.toContain(unlinked.json().data.id);
    });

    it('an assessor may not create an action on a BRA outside their assignments (403)', async () => {
      const response = await as(unitAssessor, 'POST', '/mitigation-actions', { ...newAction, bra_id: braEntityOne.id });
      await expectAccessDenied(ctx, unitAssessor, response, 'actions.create');
    });

    it("an assessor may not change, archive or bulk-update actions outside their list's scope", async () => {
      for (const target of [onEntityTwo, unlinkedByAdmin, unlinkedByUnitAssessor]) {
        await expectAccessDenied(ctx, entityAssessor, await as(entityAssessor, 'PATCH', `/mitigation-actions/${target.id}`, { owner: 'Me' }), 'actions.update');
        await expectAccessDenied(ctx, entityAssessor, await as(entityAssessor, 'POST', `/mitigation-actions/${target.id}/archive`), 'actions.archive');
      }
      // Bulk update is the exception of D7.3: an out-of-scope id is 404, and nothing changes.
      const bulk = await as(entityAssessor, 'POST', '/mitigation-actions/bulk-update', {
        action_ids: [onEntityOne.id, onEntityTwo.id],
        updates: { owner: 'Me' },
      });
      expect(bulk.statusCode, bulk.body).toBe(404);
      expect(bulk.json()).toMatchObject({ code: 'NOT_FOUND', details: { action_ids: [onEntityTwo.id] } });
      const owners = await ctx.db.selectFrom('mitigation_actions').select('owner').where('id', 'in', [onEntityOne.id, onEntityTwo.id]).execute();
      expect(owners.map((row) => row.owner)).not.toContain('Me');
    });

    it('an assessor changes and archives actions within scope: their own unlinked ones and those of assigned BRAs', async () => {
      const patched = await as(entityAssessor, 'PATCH', `/mitigation-actions/${onUnitA.id}`, { status: 'in_progress' });
      expect(patched.statusCode, patched.body).toBe(200);
      const own = await as(unitAssessor, 'PATCH', `/mitigation-actions/${unlinkedByUnitAssessor.id}`, { owner: 'Unit A team' });
      expect(own.statusCode, own.body).toBe(200);
      const archived = await as(unitAssessor, 'POST', `/mitigation-actions/${unlinkedByUnitAssessor.id}/archive`);
      expect(archived.statusCode, archived.body).toBe(200);
    });

    it("another enterprise's admin gets 404 for these actions, never 403 (D2.2, D10.1)", async () => {
      const other = await createEnterprise(ctx);
      const otherAdmin = await createUser(ctx, { role: 'admin', enterpriseId: other.id });
      const patch = await as(otherAdmin, 'PATCH', `/mitigation-actions/${onEntityOne.id}`, { status: 'completed' });
      expect(patch.statusCode, patch.body).toBe(404);
      expect(patch.json()).toMatchObject({ code: 'NOT_FOUND' });
      expect((await as(otherAdmin, 'POST', `/mitigation-actions/${onEntityOne.id}/archive`)).statusCode).toBe(404);
      const bulk = await as(otherAdmin, 'POST', '/mitigation-actions/bulk-update', { action_ids: [onEntityOne.id], updates: { status: 'completed' } });
      expect(bulk.statusCode, bulk.body).toBe(404);
      const create = await as(otherAdmin, 'POST', '/mitigation-actions', { ...newAction, bra_id: braEntityOne.id });
      expect(create.statusCode, create.body).toBe(400);
      expect(create.json()).toMatchObject({ code: 'INVALID_REFERENCE', details: { field: 'bra_id' } });
      const row = await ctx.db.selectFrom('mitigation_actions').selectAll().where('id', '=', onEntityOne.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'created', archived: false });
    });
  });
});
