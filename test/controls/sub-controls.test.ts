import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { auditEntries, countAuditEntries, expectAccessDenied } from '../support/audit.js';
import { calls } from '../support/cast.js';
import { createKeyControl, createSubControl } from '../support/controls-factories.js';
import { createEnterprise, createUser, type TestUser } from '../support/factories.js';

/** Sub-controls (2.3, 4.3): creation, test results, total effectiveness (3.5, D7.1), archiving (D7.2), roles (D5). */
describe('sub-controls (4.3, 3.5, D5, D7)', async () => {
  const ctx = await createTestContext();
  const enterprise = await createEnterprise(ctx);
  const other = await createEnterprise(ctx);
  const admin = await createUser(ctx, { role: 'admin', enterpriseId: enterprise.id });
  const assessor = await createUser(ctx, { role: 'assessor', enterpriseId: enterprise.id });
  const reviewer = await createUser(ctx, { role: 'reviewer', enterpriseId: enterprise.id });
  const otherAdmin = await createUser(ctx, { role: 'admin', enterpriseId: other.id });
  const superAdmin = await createUser(ctx, { role: 'super_admin' });
  const keyControl = await createKeyControl(ctx, enterprise.id, { name: 'Payments control' });

  const { call } = calls(ctx);
  const create = (payload: Record<string, unknown>) => call(admin, 'POST', '/controls/sub-controls', { key_control_id: keyControl.id, ...payload });
  const patch = (user: TestUser, id: string, payload: unknown) => call(user, 'PATCH', `/controls/sub-controls/${id}`, payload);

  describe('POST /controls/sub-controls', () => {
    it('a client admin creates a tested sub-control: 201, total_effectiveness computed (3.5), create / control entry', async () => {
      const response = await create({ name: 'Dual authorisation', description: 'Two signatures above 10k', tod: 'B', toe: '3' });
      expect(response.statusCode, response.body).toBe(201);
      const data = response.json().data;
      expect(data).toMatchObject({
        id: expect.any(String),
        key_control_id: keyControl.id,
        name: 'Dual authorisation',
        description: 'Two signatures above 10k',
        tod: 'B',
        toe: '3',
        total_effectiveness: 'Effective',
        testing_date: null,
        tested_by: null,
        archived: false,
        created_at: expect.stringMatching(/Z$/),
      });
      const [entry] = await auditEntries(ctx, { entityId: data.id });
      expect(entry).toMatchObject({ action_type: 'create', entity_type: 'control', user_id: admin.id });
      expect(entry!.action_details).toMatchObject({
        operation: 'controls.sub_control.create',
        control_kind: 'sub_control',
        key_control_id: keyControl.id,
        total_effectiveness: 'Effective',
      });
    });

    it.each([
      ['neither', {}],
      ['only tod', { tod: 'A' }],
      ['only toe', { toe: '1' }],
    ])('with %s of ToD and ToE set, total_effectiveness is null (D7.1)', async (_case, results) => {
      const response = await create({ name: 'Partly tested', ...results });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().data.total_effectiveness).toBeNull();
    });

    it('refuses a client-sent total_effectiveness with 422, even one that agrees with the matrix (2.3)', async () => {
      const before = await countAuditEntries(ctx, enterprise.id);
      for (const total of ['Highly Effective', 'Not Effective', null]) {
        const response = await create({ name: 'Cheat', tod: 'A', toe: '1', total_effectiveness: total });
        expect(response.statusCode, response.body).toBe(422);
        expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: [{ field: 'total_effectiveness' }] } });
      }
      expect(await countAuditEntries(ctx, enterprise.id)).toBe(before);
    });

    it.each([
      ['tod', 'F'],
      ['tod', 'a'],
      ['tod', ''],
      ['tod', 1],
      ['toe', '0'],
      ['toe', '6'],
      ['toe', 3],
      ['toe', 'A'],
    ])('refuses %s = %j with 422 VALIDATION_ERROR', async (field, value) => {
      const response = await create({ name: 'Bad rating', [field]: value });
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json().details.fields).toEqual([expect.objectContaining({ field })]);
    });

    it('refuses missing or malformed required fields with 422', async () => {
      expect((await call(admin, 'POST', '/controls/sub-controls', { name: 'No parent' })).statusCode).toBe(422);
      expect((await create({})).statusCode).toBe(422);
      expect((await create({ name: 'x', key_control_id: 'not-a-uuid' })).statusCode).toBe(422);
      expect((await create({ name: 'x', testing_date: '2026-01-01' })).statusCode).toBe(422);
    });

    it("refuses an unknown or another enterprise's key control with 400 INVALID_REFERENCE (D2.2)", async () => {
      const foreign = await createKeyControl(ctx, other.id);
      for (const keyControlId of [foreign.id, randomUUID()]) {
        const response = await create({ name: 'Orphan', key_control_id: keyControlId });
        expect(response.statusCode, response.body).toBe(400);
        expect(response.json()).toMatchObject({ code: 'INVALID_REFERENCE', details: { field: 'key_control_id' } });
      }
      const rows = await ctx.db.selectFrom('sub_controls').select('id').where('key_control_id', '=', foreign.id).execute();
      expect(rows).toHaveLength(0);
    });

    it('refuses a sub-control under an archived key control with 409 INVALID_STATE', async () => {
      const retired = await createKeyControl(ctx, enterprise.id, { archived: true });
      const response = await create({ name: 'Late', key_control_id: retired.id });
      expect(response.statusCode, response.body).toBe(409);
      expect(response.json().code).toBe('INVALID_STATE');
    });

    it.each([
      ['assessor', assessor],
      ['reviewer', reviewer],
      ['super admin', superAdmin],
    ])('a %s is refused with 403 (D5)', async (_role, user) => {
      const response = await call(user, 'POST', '/controls/sub-controls', { key_control_id: keyControl.id, name: 'Not allowed' });
      await expectAccessDenied(ctx, user, response, 'controls.sub_control.create');
    });
  });

  describe('PATCH /controls/sub-controls/{id}: recording test results', () => {
    it('an assessor records test results; total_effectiveness is recomputed and the entry lists the changes (D5, 3.5)', async () => {
      const sub = await createSubControl(ctx, enterprise.id, { keyControlId: keyControl.id, tod: 'A', toe: '1' });
      const response = await patch(assessor, sub.id, {
        toe: '4',
        testing_date: '2026-03-31',
        tested_by: 'Marcus Reid',
        evidence_notes: 'Sample of 25 payments',
        tod_justification: 'Design covers all channels',
        toe_justification: 'Three exceptions found',
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().data).toMatchObject({
        id: sub.id,
        key_control_id: keyControl.id,
        tod: 'A',
        toe: '4',
        total_effectiveness: 'Moderately Effective',
        testing_date: '2026-03-31',
        tested_by: 'Marcus Reid',
        evidence_notes: 'Sample of 25 payments',
        tod_justification: 'Design covers all channels',
        toe_justification: 'Three exceptions found',
        updated_at: expect.stringMatching(/Z$/),
      });
      const [entry] = await auditEntries(ctx, { entityId: sub.id, action: 'update' });
      expect(entry).toMatchObject({ entity_type: 'control', user_id: assessor.id });
      expect(entry!.action_details).toMatchObject({
        operation: 'controls.sub_control.update',
        control_kind: 'sub_control',
        changes: {
          toe: { from: '1', to: '4' },
          total_effectiveness: { from: 'Highly Effective', to: 'Moderately Effective' },
          testing_date: { from: null, to: '2026-03-31' },
        },
      });
    });

    it('a client admin records results too; setting the missing ToE completes the total, clearing ToD empties it (D7.1)', async () => {
      const sub = await createSubControl(ctx, enterprise.id, { keyControlId: keyControl.id, tod: 'C' });
      const completed = await patch(admin, sub.id, { toe: '2' });
      expect(completed.json().data).toMatchObject({ tod: 'C', toe: '2', total_effectiveness: 'Effective' });
      const cleared = await patch(admin, sub.id, { tod: null });
      expect(cleared.statusCode, cleared.body).toBe(200);
      expect(cleared.json().data).toMatchObject({ tod: null, toe: '2', total_effectiveness: null });
    });

    it('a change of other fields keeps the total; a body that changes nothing writes no entry', async () => {
      const sub = await createSubControl(ctx, enterprise.id, { keyControlId: keyControl.id, tod: 'E', toe: '5' });
      const response = await patch(assessor, sub.id, { tested_by: 'Someone' });
      expect(response.json().data).toMatchObject({ total_effectiveness: 'Not Effective', tested_by: 'Someone' });
      const before = await countAuditEntries(ctx, enterprise.id);
      expect((await patch(assessor, sub.id, { tod: 'E', tested_by: 'Someone' })).statusCode).toBe(200);
      expect((await patch(assessor, sub.id, {})).statusCode).toBe(200);
      expect(await countAuditEntries(ctx, enterprise.id)).toBe(before);
    });

    it('refuses total_effectiveness, name and other fields outside the test results with 422, changing nothing', async () => {
      const sub = await createSubControl(ctx, enterprise.id, { keyControlId: keyControl.id, tod: 'A', toe: '1' });
      for (const payload of [
        { total_effectiveness: 'Not Effective' },
        { toe: '5', total_effectiveness: 'Not Effective' },
        { name: 'Renamed' },
        { key_control_id: keyControl.id },
        { archived: true },
      ]) {
        const response = await patch(admin, sub.id, payload);
        expect(response.statusCode, JSON.stringify(payload)).toBe(422);
      }
      const row = await ctx.db.selectFrom('sub_controls').selectAll().where('id', '=', sub.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ tod: 'A', toe: '1', total_effectiveness: 'Highly Effective' });
    });

    it.each([
      ['tod', 'Z'],
      ['tod', 'b'],
      ['toe', '7'],
      ['toe', 2],
      ['testing_date', '31/03/2026'],
      ['testing_date', '2026-02-30'],
      ['tested_by', 'x'.repeat(201)],
      ['evidence_notes', 'x'.repeat(5001)],
    ])('refuses %s = %j with 422', async (field, value) => {
      const sub = await createSubControl(ctx, enterprise.id, { keyControlId: keyControl.id });
      const response = await patch(assessor, sub.id, { [field]: value });
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json().details.fields).toEqual([expect.objectContaining({ field })]);
    });

    it('a reviewer cannot record test results (D5): 403, nothing changes', async () => {
      const sub = await createSubControl(ctx, enterprise.id, { keyControlId: keyControl.id });
      await expectAccessDenied(ctx, reviewer, await patch(reviewer, sub.id, { tod: 'A' }), 'controls.sub_control.update');
      await expectAccessDenied(ctx, superAdmin, await patch(superAdmin, sub.id, { tod: 'A' }), 'controls.sub_control.update');
      const row = await ctx.db.selectFrom('sub_controls').select('tod').where('id', '=', sub.id).executeTakeFirstOrThrow();
      expect(row.tod).toBeNull();
    });

    it("answers 404 for another enterprise's sub-control and for an unknown id (cross-tenant, D2.2)", async () => {
      const foreign = await createSubControl(ctx, other.id);
      expect((await patch(admin, foreign.id, { tod: 'A' })).statusCode).toBe(404);
      expect((await patch(assessor, randomUUID(), { tod: 'A' })).json().code).toBe('NOT_FOUND');
      expect((await patch(admin, 'nope', { tod: 'A' })).statusCode).toBe(400);
      const row = await ctx.db.selectFrom('sub_controls').select('tod').where('id', '=', foreign.id).executeTakeFirstOrThrow();
      expect(row.tod).toBeNull();
    });

    it('refuses an archived sub-control with 409 INVALID_STATE', async () => {
      const sub = await createSubControl(ctx, enterprise.id, { keyControlId: keyControl.id, archived: true });
      const response = await patch(admin, sub.id, { tod: 'A' });
      expect(response.statusCode, response.body).toBe(409);
      expect(response.json().code).toBe('INVALID_STATE');
    });

    it('two concurrent changes of ToD and ToE both land, and the total reflects both', async () => {
      const sub = await createSubControl(ctx, enterprise.id, { keyControlId: keyControl.id });
      const [tod, toe] = await Promise.all([patch(admin, sub.id, { tod: 'D' }), patch(assessor, sub.id, { toe: '3' })]);
      expect([tod.statusCode, toe.statusCode]).toEqual([200, 200]);
      const row = await ctx.db.selectFrom('sub_controls').selectAll().where('id', '=', sub.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ tod: 'D', toe: '3', total_effectiveness: 'Less Effective' });
    });
  });

  describe('GET /controls/sub-controls', async () => {
    const listed = await createEnterprise(ctx);
    const listReviewer = await createUser(ctx, { role: 'reviewer', enterpriseId: listed.id });
    const first = await createKeyControl(ctx, listed.id);
    const second = await createKeyControl(ctx, listed.id);
    const a = await createSubControl(ctx, listed.id, { keyControlId: first.id, name: 'a', tod: 'A', toe: '2' });
    const b = await createSubControl(ctx, listed.id, { keyControlId: first.id, name: 'b', archived: true });
    const c = await createSubControl(ctx, listed.id, { keyControlId: second.id, name: 'c' });
    const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 0, minutes)).toISOString();
    for (const [id, minutes] of [[a.id, 1], [b.id, 2], [c.id, 3]] as const) {
      await ctx.db.updateTable('sub_controls').set({ created_at: at(minutes) } as never).where('id', '=', id).execute();
    }

    it('lists active sub-controls newest first, as data only (4.3), for every member role', async () => {
      const response = await call(listReviewer, 'GET', '/controls/sub-controls');
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      expect(Object.keys(body)).toEqual(['data']);
      expect(body.data.map((s: { id: string }) => s.id)).toEqual([c.id, a.id]);
      expect(body.data[1]).toMatchObject({
        id: a.id,
        key_control_id: first.id,
        name: 'a',
        description: null,
        tod: 'A',
        toe: '2',
        total_effectiveness: 'Highly Effective',
        testing_date: null,
        tested_by: null,
        archived: false,
      });
    });

    it('filters by key_control_id; archived=true adds archived ones', async () => {
      const active = (await call(listReviewer, 'GET', `/controls/sub-controls?key_control_id=${first.id}`)).json().data;
      expect(active.map((s: { id: string }) => s.id)).toEqual([a.id]);
      const all = (await call(listReviewer, 'GET', `/controls/sub-controls?key_control_id=${first.id}&archived=true`)).json().data;
      expect(all.map((s: { id: string }) => s.id)).toEqual([b.id, a.id]);
    });

    it('a key_control_id of another enterprise is 400 INVALID_REFERENCE, a malformed one 400 BAD_REQUEST (D2.2, cross-tenant)', async () => {
      const foreign = await call(otherAdmin, 'GET', `/controls/sub-controls?key_control_id=${first.id}`);
      expect(foreign.statusCode, foreign.body).toBe(400);
      expect(foreign.json()).toMatchObject({ code: 'INVALID_REFERENCE', details: { field: 'key_control_id' } });
      expect((await call(listReviewer, 'GET', `/controls/sub-controls?key_control_id=${randomUUID()}`)).json().code).toBe('INVALID_REFERENCE');
      expect((await call(listReviewer, 'GET', '/controls/sub-controls?key_control_id=zzz')).json().code).toBe('BAD_REQUEST');
      const theirs = (await call(otherAdmin, 'GET', '/controls/sub-controls?archived=true')).json().data.map((s: { id: string }) => s.id);
      expect(theirs).not.toContain(a.id);
    });
  });

  describe('POST /controls/sub-controls/{id}/archive (D7.2)', () => {
    it('a client admin archives a sub-control: 200 message, gone from lists, delete / control entry (2.9); again is a no-op', async () => {
      const sub = await createSubControl(ctx, enterprise.id, { keyControlId: keyControl.id });
      const response = await call(admin, 'POST', `/controls/sub-controls/${sub.id}/archive`);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ message: expect.any(String) });
      const listed = (await call(admin, 'GET', `/controls/sub-controls?key_control_id=${keyControl.id}`)).json().data.map((s: { id: string }) => s.id);
      expect(listed).not.toContain(sub.id);
      const entries = await auditEntries(ctx, { entityId: sub.id, action: 'delete' });
      expect(entries).toEqual([expect.objectContaining({ entity_type: 'control', action_details: expect.objectContaining({ operation: 'controls.sub_control.archive', change: 'archived' }) })]);
      expect((await call(admin, 'POST', `/controls/sub-controls/${sub.id}/archive`)).statusCode).toBe(200);
      expect(await auditEntries(ctx, { entityId: sub.id, action: 'delete' })).toHaveLength(1);
    });

    it('an assessor or reviewer is refused with 403; another enterprise answers 404 (D5, D10.1)', async () => {
      const sub = await createSubControl(ctx, enterprise.id, { keyControlId: keyControl.id });
      await expectAccessDenied(ctx, assessor, await call(assessor, 'POST', `/controls/sub-controls/${sub.id}/archive`), 'controls.sub_control.archive');
      await expectAccessDenied(ctx, reviewer, await call(reviewer, 'POST', `/controls/sub-controls/${sub.id}/archive`));
      expect((await call(otherAdmin, 'POST', `/controls/sub-controls/${sub.id}/archive`)).statusCode).toBe(404);
      const row = await ctx.db.selectFrom('sub_controls').select('archived').where('id', '=', sub.id).executeTakeFirstOrThrow();
      expect(row.archived).toBe(false);
    });
  });
});
