import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { auditEntries, countAuditEntries, expectAccessDenied } from '../support/audit.js';
import { calls } from '../support/cast.js';
import { createKeyControl, createSubControl } from '../support/controls-factories.js';
import { createEnterprise, createUser } from '../support/factories.js';

/** Key controls (2.2, 4.3, D7.2) and who may change them (D5). */
describe('key controls (4.3, D7.2, D5)', async () => {
  const ctx = await createTestContext();
  const enterprise = await createEnterprise(ctx);
  const other = await createEnterprise(ctx);
  const admin = await createUser(ctx, { role: 'admin', enterpriseId: enterprise.id });
  const assessor = await createUser(ctx, { role: 'assessor', enterpriseId: enterprise.id });
  const reviewer = await createUser(ctx, { role: 'reviewer', enterpriseId: enterprise.id });
  const otherAdmin = await createUser(ctx, { role: 'admin', enterpriseId: other.id });
  const superAdmin = await createUser(ctx, { role: 'super_admin' });

  const { call } = calls(ctx);

  describe('POST /controls/key-controls', () => {
    it('a client admin creates a key control: 201, the 4.3 shape, and a create / control audit entry', async () => {
      const response = await call(admin, 'POST', '/controls/key-controls', { name: '  Segregation of duties  ', description: 'Maker-checker on payments' });
      expect(response.statusCode, response.body).toBe(201);
      const body = response.json();
      expect(body.message).toEqual(expect.any(String));
      expect(body.data).toEqual({
        id: expect.any(String),
        name: 'Segregation of duties',
        description: 'Maker-checker on payments',
        archived: false,
        created_at: expect.stringMatching(/Z$/),
        updated_at: expect.stringMatching(/Z$/),
      });
      const [entry] = await auditEntries(ctx, { entityId: body.data.id });
      expect(entry).toMatchObject({ action_type: 'create', entity_type: 'control', user_id: admin.id, enterprise_id: enterprise.id });
      expect(entry!.action_details).toMatchObject({ operation: 'controls.key_control.create', control_kind: 'key_control', name: 'Segregation of duties' });
    });

    it('the description is optional', async () => {
      const response = await call(admin, 'POST', '/controls/key-controls', { name: 'Access reviews' });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().data.description).toBeNull();
    });

    it.each([
      ['a missing name', { description: 'x' }, 'name'],
      ['a blank name', { name: '   ' }, 'name'],
      ['a name over 200 characters', { name: 'n'.repeat(201) }, 'name'],
      ['an unknown field', { name: 'Valid', archived: true }, 'archived'],
      ['a non-string description', { name: 'Valid', description: 5 }, 'description'],
    ])('refuses %s with 422 VALIDATION_ERROR naming the field (D2.3)', async (_case, payload, field) => {
      const before = await countAuditEntries(ctx, enterprise.id);
      const response = await call(admin, 'POST', '/controls/key-controls', payload);
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
      expect(response.json().details.fields.map((f: { field: string }) => f.field)).toContain(field);
      expect(await countAuditEntries(ctx, enterprise.id)).toBe(before);
    });

    it.each([
      ['assessor', assessor],
      ['reviewer', reviewer],
      ['super admin', superAdmin],
    ])('a %s is refused with 403 and an access_denied entry (D5)', async (_role, user) => {
      await expectAccessDenied(ctx, user, await call(user, 'POST', '/controls/key-controls', { name: 'Not allowed' }), 'controls.key_control.create');
    });
  });

  describe('GET /controls/key-controls', async () => {
    // A dedicated enterprise so that the list's exact contents can be asserted.
    const listed = await createEnterprise(ctx);
    const listAdmin = await createUser(ctx, { role: 'admin', enterpriseId: listed.id });
    const listReviewer = await createUser(ctx, { role: 'reviewer', enterpriseId: listed.id });
    const older = await createKeyControl(ctx, listed.id, { name: 'Older' });
    const newer = await createKeyControl(ctx, listed.id, { name: 'Newer' });
    const retired = await createKeyControl(ctx, listed.id, { name: 'Retired', archived: true });
    const tested = await createSubControl(ctx, listed.id, { keyControlId: older.id, name: 'Tested', tod: 'B', toe: '2' });
    const untested = await createSubControl(ctx, listed.id, { keyControlId: older.id, name: 'Untested' });
    const archivedSub = await createSubControl(ctx, listed.id, { keyControlId: older.id, name: 'Gone', tod: 'A', toe: '1', archived: true });
    const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 0, minutes)).toISOString();
    for (const [table, id, minutes] of [
      ['key_controls', older.id, 1],
      ['key_controls', newer.id, 2],
      ['key_controls', retired.id, 3],
      ['sub_controls', tested.id, 4],
      ['sub_controls', untested.id, 5],
      ['sub_controls', archivedSub.id, 6],
    ] as const) {
      await ctx.db.updateTable(table).set({ created_at: at(minutes) } as never).where('id', '=', id).execute();
    }
    await createKeyControl(ctx, other.id, { name: 'Foreign' });

    it('lists active key controls newest first with nested active sub-controls and pagination (4.3, D2.5)', async () => {
      const response = await call(listReviewer, 'GET', '/controls/key-controls');
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      expect(body.pagination).toEqual({ page: 1, page_size: 25, total: 2, total_pages: 1, has_next: false, has_prev: false });
      expect(body.data.map((k: { name: string }) => k.name)).toEqual(['Newer', 'Older']);
      expect(body.data[0]).toMatchObject({ id: newer.id, description: null, archived: false, created_at: at(2), sub_controls: [] });
      expect(body.data[1].sub_controls).toEqual([
        { id: untested.id, name: 'Untested', tod: null, toe: null, total_effectiveness: null, archived: false },
        { id: tested.id, name: 'Tested', tod: 'B', toe: '2', total_effectiveness: 'Effective', archived: false },
      ]);
    });

    it('archived=true also lists archived key controls and archived sub-controls', async () => {
      const response = await call(listAdmin, 'GET', '/controls/key-controls?archived=true');
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      expect(body.pagination.total).toBe(3);
      expect(body.data.map((k: { name: string }) => k.name)).toEqual(['Retired', 'Newer', 'Older']);
      expect(body.data[0].archived).toBe(true);
      expect(body.data[2].sub_controls.map((s: { name: string }) => s.name)).toEqual(['Gone', 'Untested', 'Tested']);
    });

    it('pages: page_size 1, page 2 is the second newest; past the end is empty with totals (D2.5)', async () => {
      const second = (await call(listAdmin, 'GET', '/controls/key-controls?page=2&page_size=1')).json();
      expect(second.data.map((k: { id: string }) => k.id)).toEqual([older.id]);
      expect(second.pagination).toEqual({ page: 2, page_size: 1, total: 2, total_pages: 2, has_next: false, has_prev: true });
      const past = (await call(listAdmin, 'GET', '/controls/key-controls?page=9')).json();
      expect(past).toMatchObject({ data: [], pagination: { total: 2, page: 9 } });
      expect((await call(listAdmin, 'GET', '/controls/key-controls?page_size=500')).json().pagination.page_size).toBe(100);
    });

    it.each(['archived=yes', 'archived=1', 'page=0', 'page=abc'])('refuses the malformed query %s with 400 (D2.2, D2.6)', async (query) => {
      const response = await call(listAdmin, 'GET', `/controls/key-controls?${query}`);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().code).toBe('BAD_REQUEST');
    });

    it("never lists another enterprise's key controls (cross-tenant)", async () => {
      const names = (await call(otherAdmin, 'GET', '/controls/key-controls?archived=true')).json().data.map((k: { name: string }) => k.name);
      expect(names).toContain('Foreign');
      expect(names).not.toContain('Older');
    });

    it('a super admin is refused with 403 (D5)', async () => {
      await expectAccessDenied(ctx, superAdmin, await call(superAdmin, 'GET', '/controls/key-controls'), 'controls.key_control.list');
    });
  });

  describe('PATCH /controls/key-controls/{id} (D7.2)', () => {
    it('a client admin renames and describes a key control; the entry records what changed', async () => {
      const control = await createKeyControl(ctx, enterprise.id, { name: 'Before' });
      const response = await call(admin, 'PATCH', `/controls/key-controls/${control.id}`, { name: 'After', description: 'Now described' });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().data).toMatchObject({ id: control.id, name: 'After', description: 'Now described', archived: false });
      const [entry] = await auditEntries(ctx, { entityId: control.id, action: 'update' });
      expect(entry!.action_details).toEqual({
        operation: 'controls.key_control.update',
        control_kind: 'key_control',
        changes: { name: { from: 'Before', to: 'After' }, description: { from: null, to: 'Now described' } },
      });
    });

    it('a body that changes nothing answers 200 and writes no entry', async () => {
      const control = await createKeyControl(ctx, enterprise.id, { name: 'Same' });
      const response = await call(admin, 'PATCH', `/controls/key-controls/${control.id}`, { name: 'Same' });
      expect(response.statusCode, response.body).toBe(200);
      expect(await auditEntries(ctx, { entityId: control.id })).toHaveLength(0);
    });

    it('refuses an archived key control with 409 INVALID_STATE', async () => {
      const control = await createKeyControl(ctx, enterprise.id, { archived: true });
      const response = await call(admin, 'PATCH', `/controls/key-controls/${control.id}`, { name: 'Revived' });
      expect(response.statusCode, response.body).toBe(409);
      expect(response.json().code).toBe('INVALID_STATE');
    });

    it('refuses unknown fields and blank names with 422', async () => {
      const control = await createKeyControl(ctx, enterprise.id);
      for (const payload of [{ archived: false }, { name: '' }, { created_at: '2026-01-01T00:00:00Z' }]) {
        const response = await call(admin, 'PATCH', `/controls/key-controls/${control.id}`, payload);
        expect(response.statusCode, JSON.stringify(payload)).toBe(422);
      }
    });

    it("answers 404 for another enterprise's key control and for an unknown id, 400 for a malformed id (D2.2)", async () => {
      const foreign = await createKeyControl(ctx, other.id, { name: 'Theirs' });
      expect((await call(admin, 'PATCH', `/controls/key-controls/${foreign.id}`, { name: 'Mine now' })).statusCode).toBe(404);
      expect((await call(admin, 'PATCH', `/controls/key-controls/${randomUUID()}`, { name: 'x' })).json().code).toBe('NOT_FOUND');
      expect((await call(admin, 'PATCH', '/controls/key-controls/not-a-uuid', { name: 'x' })).statusCode).toBe(400);
      const unchanged = await ctx.db.selectFrom('key_controls').select('name').where('id', '=', foreign.id).executeTakeFirstOrThrow();
      expect(unchanged.name).toBe('Theirs');
    });

    it.each([
      ['assessor', assessor],
      ['reviewer', reviewer],
      ['super admin', superAdmin],
    ])('a %s is refused with 403 (D5)', async (_role, user) => {
      const control = await createKeyControl(ctx, enterprise.id);
      await expectAccessDenied(ctx, user, await call(user, 'PATCH', `/controls/key-controls/${control.id}`, { name: 'x' }), 'controls.key_control.update');
    });
  });

  describe('POST /controls/key-controls/{id}/archive (D7.2)', () => {
    it('archives the key control and its sub-controls in one transaction, with an entry for each', async () => {
      const control = await createKeyControl(ctx, enterprise.id);
      const first = await createSubControl(ctx, enterprise.id, { keyControlId: control.id, tod: 'A', toe: '1' });
      const second = await createSubControl(ctx, enterprise.id, { keyControlId: control.id });
      const response = await call(admin, 'POST', `/controls/key-controls/${control.id}/archive`);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ message: expect.any(String) });
      const rows = await ctx.db.selectFrom('sub_controls').select(['id', 'archived']).where('key_control_id', '=', control.id).execute();
      expect(rows.every((row) => row.archived)).toBe(true);
      const [entry] = await auditEntries(ctx, { entityId: control.id, action: 'delete' });
      expect(entry!.action_details).toMatchObject({ operation: 'controls.key_control.archive', change: 'archived' });
      expect((entry!.action_details['archived_sub_control_ids'] as string[]).sort()).toEqual([first.id, second.id].sort());
      for (const sub of [first, second]) {
        expect(await auditEntries(ctx, { entityId: sub.id, action: 'delete' })).toEqual([
          expect.objectContaining({ entity_type: 'control', action_details: expect.objectContaining({ change: 'archived', key_control_id: control.id }) }),
        ]);
      }
      const listed = (await call(admin, 'GET', '/controls/key-controls')).json().data.map((k: { id: string }) => k.id);
      expect(listed).not.toContain(control.id);
    });

    it('archiving again answers 200 and changes nothing', async () => {
      const control = await createKeyControl(ctx, enterprise.id);
      expect((await call(admin, 'POST', `/controls/key-controls/${control.id}/archive`)).statusCode).toBe(200);
      const before = await countAuditEntries(ctx, enterprise.id);
      const again = await call(admin, 'POST', `/controls/key-controls/${control.id}/archive`);
      expect(again.statusCode, again.body).toBe(200);
      expect(await countAuditEntries(ctx, enterprise.id)).toBe(before);
    });

    it("answers 404 for another enterprise's key control and leaves it active (cross-tenant)", async () => {
      const foreign = await createKeyControl(ctx, other.id);
      expect((await call(admin, 'POST', `/controls/key-controls/${foreign.id}/archive`)).statusCode).toBe(404);
      const row = await ctx.db.selectFrom('key_controls').select('archived').where('id', '=', foreign.id).executeTakeFirstOrThrow();
      expect(row.archived).toBe(false);
    });

    it.each([
      ['assessor', assessor],
      ['reviewer', reviewer],
    ])('a %s is refused with 403 (D5)', async (_role, user) => {
      const control = await createKeyControl(ctx, enterprise.id);
      await expectAccessDenied(ctx, user, await call(user, 'POST', `/controls/key-controls/${control.id}/archive`), 'controls.key_control.archive');
    });
  });
});
