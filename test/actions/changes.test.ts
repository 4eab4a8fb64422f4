import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { auditEntries, countAuditEntries } from '../support/audit.js';
import { calls } from '../support/cast.js';
import { createBra, createScenarioLink, insertAction, utcDate } from '../support/actions-factories.js';
import { createEnterprise, createUser, tokenFor } from '../support/factories.js';

const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** Creating, changing and archiving one action (4.4, 3.2, D7.3), each audited in its transaction (D7.5). */
describe('mitigation action changes (4.4, 3.2, D7.3)', async () => {
  const ctx = await createTestContext();
  const { call } = calls(ctx);
  const enterprise = await createEnterprise(ctx);
  const admin = await createUser(ctx, { role: 'admin', enterpriseId: enterprise.id, fullName: 'Ada Admin' });
  const token = await tokenFor(ctx, admin);
  const bra = await createBra(ctx, { enterpriseId: enterprise.id, name: 'Treasury BRA' });
  const link = await createScenarioLink(ctx, bra, { scenarioName: 'Rogue trading' });
  const otherBra = await createBra(ctx, { enterpriseId: enterprise.id });
  const otherLink = await createScenarioLink(ctx, otherBra);

  const create = (payload: unknown) => call(token, 'POST', '/mitigation-actions', payload);
  const patch = (id: string, payload: unknown) => call(token, 'PATCH', `/mitigation-actions/${id}`, payload);
  const archive = (id: string) => call(token, 'POST', `/mitigation-actions/${id}/archive`);
  const valid = { action: 'Four-eyes check on large trades', owner: 'Treasury Ops', priority: 'critical', action_type: 'Preventive', due_date: '2027-03-31' };

  describe('POST /mitigation-actions', () => {
    it('creates an action linked to a BRA and its scenario: 201, status created, the 2.4 fields, a create entry', async () => {
      const response = await create({ ...valid, action: '  Four-eyes check on large trades  ', bra_id: bra.id, bra_risk_scenario_id: link.id });
      expect(response.statusCode, response.body).toBe(201);
      const body = response.json();
      expect(body.message).toEqual(expect.any(String));
      expect(body.data).toEqual({
        id: expect.any(String),
        action: 'Four-eyes check on large trades',
        owner: 'Treasury Ops',
        owner_user_id: null,
        status: 'created',
        priority: 'critical',
        action_type: 'Preventive',
        due_date: '2027-03-31',
        bra_id: bra.id,
        bra_risk_scenario_id: link.id,
        owner_user: null,
        is_overdue: false,
        archived: false,
        created_at: expect.stringMatching(ISO_Z),
        updated_at: expect.stringMatching(ISO_Z),
        bra: { name: 'Treasury BRA' },
        risk_scenario: { name: 'Rogue trading' },
      });
      const [entry] = await auditEntries(ctx, { entityId: body.data.id });
      expect(entry).toMatchObject({
        action_type: 'create',
        entity_type: 'mitigation_action',
        user_id: admin.id,
        user_name: 'Ada Admin',
        enterprise_id: enterprise.id,
        status: 'success',
      });
      expect(entry!.action_details).toEqual({
        operation: 'actions.create',
        action: 'Four-eyes check on large trades',
        owner: 'Treasury Ops',
        owner_user_id: null,
        status: 'created',
        priority: 'critical',
        action_type: 'Preventive',
        due_date: '2027-03-31',
        bra_id: bra.id,
        bra_risk_scenario_id: link.id,
      });
      const row = await ctx.db.selectFrom('mitigation_actions').select('created_by').where('id', '=', body.data.id).executeTakeFirstOrThrow();
      expect(row.created_by).toBe(admin.id);
    });

    it('creates an unlinked action; a due date in the past is accepted and shows as overdue at once', async () => {
      const response = await create({ ...valid, due_date: utcDate(-3) });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().data).toMatchObject({ bra_id: null, bra_risk_scenario_id: null, bra: null, risk_scenario: null, is_overdue: true });
    });

    it.each([
      ['a bra_risk_scenario_id without bra_id', () => ({ bra_risk_scenario_id: link.id }), 'bra_risk_scenario_id'],
      ['a scenario link of another BRA', () => ({ bra_id: bra.id, bra_risk_scenario_id: otherLink.id }), 'bra_risk_scenario_id'],
      ['an unknown scenario link', () => ({ bra_id: bra.id, bra_risk_scenario_id: '00000000-0000-4000-8000-000000000000' }), 'bra_risk_scenario_id'],
      ['an unknown BRA', () => ({ bra_id: '00000000-0000-4000-8000-000000000000' }), 'bra_id'],
    ])('refuses %s with 400 INVALID_REFERENCE and writes nothing (D7.3)', async (_name, links, field) => {
      const before = await countAuditEntries(ctx, enterprise.id);
      const rowsBefore = (await ctx.db.selectFrom('mitigation_actions').select('id').execute()).length;
      const response = await create({ ...valid, ...links() });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ code: 'INVALID_REFERENCE', details: { field } });
      expect(await countAuditEntries(ctx, enterprise.id)).toBe(before);
      expect((await ctx.db.selectFrom('mitigation_actions').select('id').execute()).length).toBe(rowsBefore);
    });

    it.each([
      ['a missing action', { action: undefined }, 'action'],
      ['a blank owner', { owner: '   ' }, 'owner'],
      ['an unknown priority', { priority: 'urgent' }, 'priority'],
      ['a bad date', { due_date: '2027-02-30' }, 'due_date'],
      ['a timestamp as date', { due_date: '2027-02-01T00:00:00Z' }, 'due_date'],
      ['a status (always created)', { status: 'completed' }, 'status'],
      ['an unknown field', { is_overdue: true }, 'is_overdue'],
      ['a malformed bra_id', { bra_id: 'bra-1' }, 'bra_id'],
      ['an owner over 200 characters', { owner: 'x'.repeat(201) }, 'owner'],
    ])('refuses %s with 422 VALIDATION_ERROR naming the field (D2.2, D2.3)', async (_name, change, field) => {
      const response = await create({ ...valid, ...change });
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
      expect(response.json().details.fields.map((f: { field: string }) => f.field)).toContain(field);
    });
  });

  describe('PATCH /mitigation-actions/{action_id}', () => {
    it('changes the fields sent and answers the id, those fields, is_overdue and updated_at; one update entry with from/to', async () => {
      const action = await insertAction(ctx, { enterpriseId: enterprise.id, owner: 'Ops', dueDate: utcDate(5), status: 'created' });
      const response = await patch(action.id, { owner: 'Risk Office', due_date: utcDate(-1), status: 'in_progress' });
      expect(response.statusCode, response.body).toBe(200);
      const data = response.json().data;
      expect(data).toEqual({
        id: action.id,
        owner: 'Risk Office',
        status: 'in_progress',
        due_date: utcDate(-1),
        is_overdue: true,
        updated_at: expect.stringMatching(ISO_Z),
      });
      expect(new Date(data.updated_at).getTime()).toBeGreaterThan(action.updated_at.getTime());
      const entries = await auditEntries(ctx, { entityId: action.id });
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ action_type: 'update', entity_type: 'mitigation_action' });
      expect(entries[0]!.action_details).toEqual({
        operation: 'actions.update',
        changes: {
          owner: { from: 'Ops', to: 'Risk Office' },
          status: { from: 'created', to: 'in_progress' },
          due_date: { from: utcDate(5), to: utcDate(-1) },
        },
      });
    });

    it('allows every move between the three statuses (D7.3), completed back to created included', async () => {
      const action = await insertAction(ctx, { enterpriseId: enterprise.id, status: 'created', dueDate: utcDate(-2) });
      const moves = ['completed', 'created', 'in_progress', 'completed', 'in_progress', 'created', 'created'] as const;
      for (const status of moves) {
        const response = await patch(action.id, { status });
        expect(response.statusCode, `${status}: ${response.body}`).toBe(200);
        expect(response.json().data).toMatchObject({ status, is_overdue: status !== 'completed' });
      }
      expect(await auditEntries(ctx, { entityId: action.id })).toHaveLength(moves.length);
    });

    it('accepts action, priority and action_type too (D7.3)', async () => {
      const action = await insertAction(ctx, { enterpriseId: enterprise.id });
      const response = await patch(action.id, { action: 'Reworded', priority: 'low', action_type: 'Corrective' });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().data).toMatchObject({ action: 'Reworded', priority: 'low', action_type: 'Corrective' });
    });

    it.each([
      ['an empty body', {}],
      ['a link (fixed at creation)', { bra_id: bra.id }],
      ['an unknown status', { status: 'done' }],
      ['a null owner', { owner: null }],
      ['archived (set by the archive call only)', { archived: true }],
    ])('refuses %s with 422', async (_name, payload) => {
      const action = await insertAction(ctx, { enterpriseId: enterprise.id });
      const response = await patch(action.id, payload);
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
      expect(await auditEntries(ctx, { entityId: action.id })).toEqual([]);
    });

    it('answers 404 for an unknown action and 400 for a malformed id', async () => {
      expect((await patch('00000000-0000-4000-8000-000000000000', { status: 'completed' })).statusCode).toBe(404);
      const malformed = await patch('not-a-uuid', { status: 'completed' });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json()).toMatchObject({ code: 'BAD_REQUEST' });
    });

    it('refuses to change an archived action: 409 INVALID_STATE, nothing changed (D7.3)', async () => {
      const action = await insertAction(ctx, { enterpriseId: enterprise.id, status: 'created', archived: true });
      const response = await patch(action.id, { status: 'completed' });
      expect(response.statusCode, response.body).toBe(409);
      expect(response.json()).toMatchObject({ code: 'INVALID_STATE' });
      const row = await ctx.db.selectFrom('mitigation_actions').selectAll().where('id', '=', action.id).executeTakeFirstOrThrow();
      expect(row.status).toBe('created');
      expect(await auditEntries(ctx, { entityId: action.id })).toEqual([]);
    });
  });

  describe('POST /mitigation-actions/{action_id}/archive', () => {
    it('archives: 200 with a message only, one delete entry; the action leaves the list unless archived=true', async () => {
      const created = (await create(valid)).json().data;
      const response = await archive(created.id);
      expect(response.statusCode, response.body).toBe(200);
      expect(Object.keys(response.json())).toEqual(['message']);
      const entries = await auditEntries(ctx, { entityId: created.id, action: 'delete' });
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ entity_type: 'mitigation_action' });
      expect(entries[0]!.action_details).toMatchObject({ operation: 'actions.archive', archived: true });
      const listed = (await call(token, 'GET', '/mitigation-actions?page_size=100')).json().data.map((a: { id: string }) => a.id);
      expect(listed).not.toContain(created.id);
      const withArchived = (await call(token, 'GET', '/mitigation-actions?archived=true&page_size=100')).json().data;
      expect(withArchived.find((a: { id: string }) => a.id === created.id)).toMatchObject({ archived: true });
    });

    it('is idempotent: archiving again answers 200 and writes nothing (D7.3)', async () => {
      const created = (await create(valid)).json().data;
      expect((await archive(created.id)).statusCode).toBe(200);
      const before = await countAuditEntries(ctx, enterprise.id);
      const again = await archive(created.id);
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json()).toEqual({ message: expect.any(String) });
      expect(await countAuditEntries(ctx, enterprise.id)).toBe(before);
    });

    it('then refuses changes to it with 409 (D7.3)', async () => {
      const created = (await create(valid)).json().data;
      await archive(created.id);
      const response = await patch(created.id, { owner: 'Someone' });
      expect(response.statusCode, response.body).toBe(409);
      expect(response.json()).toMatchObject({ code: 'INVALID_STATE' });
    });

    it('answers 404 for an unknown action', async () => {
      const response = await archive('00000000-0000-4000-8000-000000000000');
      expect(response.statusCode, response.body).toBe(404);
      expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
    });
  });
});
