import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { signingKeyEnv } from '../support/governance-factories.js';
import { createBra } from '../support/bras-factories.js';
import { createKeyControl, createSubControl } from '../support/controls-factories.js';
import { createLegalEntity, createUser, tokenFor } from '../support/factories.js';
import { calls } from '../support/cast.js';

/**
 * The findings of the robustness probe, each reproduced as it was reported: inputs that gave a 500, inputs
 * silently ignored, rights the service's role should not have, and audit entries of the wrong kind.
 */
describe('findings of the robustness probe', async () => {
  const ctx = await createTestContext({ env: signingKeyEnv() });
  const { call } = calls(ctx);
  const admin = await createUser(ctx, { role: 'admin' });
  const token = await tokenFor(ctx, admin);
  const enterpriseId = admin.enterpriseId!;
  const entity = await createLegalEntity(ctx, enterpriseId);
  const bra = await createBra(ctx, { enterpriseId, legalEntityId: entity.id });
  const keyControl = await createKeyControl(ctx, enterpriseId);
  const subControl = await createSubControl(ctx, enterpriseId, { keyControlId: keyControl.id, name: 'Four eyes' });

  async function alertsRaised() {
    await ctx.monitor.flush();
    return ctx.db.selectFrom('system_alerts').select(['type', 'cause']).execute();
  }

  describe('2. a date in year 0 is 422 naming the field, never a 500', () => {
    const action = { action: 'Fix it', owner: 'Ops', priority: 'high', action_type: 'preventive' };
    it.each([
      ['PATCH sub-control testing_date', () => call(token, 'PATCH', `/controls/sub-controls/${subControl.id}`, { testing_date: '0000-01-01' }), 'testing_date'],
      ['POST BRA start_date', () => call(token, 'POST', '/bras', { name: 'Year zero', legal_entity_id: entity.id, period: 'FY', assessor: 'A', start_date: '0000-01-01' }), 'start_date'],
      ['PATCH BRA start_date', () => call(token, 'PATCH', `/bras/${bra.id}`, { start_date: '0000-01-01' }), 'start_date'],
      ['POST action due_date', () => call(token, 'POST', '/mitigation-actions', { ...action, due_date: '0000-01-01' }), 'due_date'],
    ])('%s', async (_name, send, field) => {
      const response = await send();
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json().details.fields.map((f: { field: string }) => f.field)).toContain(field);
    });

    it('in a query filter it is 400, and no alert is raised', async () => {
      const response = await call(token, 'GET', '/audit?start_date=0000-01-01');
      expect(response.statusCode, response.body).toBe(400);
      expect(await alertsRaised()).toEqual([]);
    });

    it('year 0001 is a date like any other', async () => {
      const response = await call(token, 'PATCH', `/controls/sub-controls/${subControl.id}`, { testing_date: '0001-01-01' });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().data.testing_date).toBe('0001-01-01');
    });
  });

  describe('3. a lone UTF-16 surrogate is 422 naming the field, on creates and updates alike', () => {
    const lone = 'x\ud800y';
    it.each([
      ['PATCH BRA name', () => call(token, 'PATCH', `/bras/${bra.id}`, { name: lone }), 'name'],
      ['PATCH BRA description', () => call(token, 'PATCH', `/bras/${bra.id}`, { description: lone }), 'description'],
      ['PATCH sub-control tested_by', () => call(token, 'PATCH', `/controls/sub-controls/${subControl.id}`, { tested_by: lone }), 'tested_by'],
      ['POST appetite description', () => call(token, 'POST', '/governance/risk-appetite', { risk_level: 'Medium', threshold_value: 9, description: lone }), 'description'],
      ['POST appetite reason', () => call(token, 'POST', '/governance/risk-appetite', { risk_level: 'Medium', threshold_value: 9, reason: `low ${'\udc00'}` }), 'reason'],
      ['POST legal entity name (a create)', () => call(token, 'POST', '/admin/legal-entities', { name: lone }), 'name'],
    ])('%s', async (_name, send, field) => {
      const response = await send();
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: [{ field }] } });
    });

    it('nothing was stored as U+FFFD and no alert was raised', async () => {
      const replaced = await sql<{ n: number }>`select count(*)::int as n from legal_entities where name like ${'%\ufffd%'}`.execute(ctx.db);
      expect(replaced.rows[0]!.n).toBe(0);
      expect(await alertsRaised()).toEqual([]);
    });

    it('a pair of surrogates (an emoji) is text like any other', async () => {
      const response = await call(token, 'PATCH', `/bras/${bra.id}`, { description: 'Risk \ud83d\udcc8 rising' });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().data.description).toBe('Risk 📈 rising');
    });
  });

  describe('4. an unknown query parameter is 400 BAD_REQUEST naming it, on every endpoint', () => {
    it.each([
      ['/audit?entity=x', 'entity'],
      [`/controls/effectiveness?legal_entity=${entity.id}`, 'legal_entity'],
      ['/bras?statuss=draft', 'statuss'],
      [`/bras/${bra.id}?verbose=1`, 'verbose'],
      ['/me?x=1', 'x'],
    ])('GET %s', async (url, parameter) => {
      const response = await call(token, 'GET', url);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ code: 'BAD_REQUEST', details: { fields: [{ field: parameter }] } });
      expect(response.json().error).toContain(parameter);
    });

    it('declared parameters still work', async () => {
      const response = await call(token, 'GET', '/audit?page=1&page_size=5');
      expect(response.statusCode, response.body).toBe(200);
    });
  });

  describe('5. a body where none is taken, and a charset other than UTF-8', () => {
    it('archive with a body member is 422 and archives nothing', async () => {
      const response = await call(token, 'POST', `/controls/key-controls/${keyControl.id}/archive`, { reason: 'tidy' });
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: [{ field: 'reason', message: 'is not allowed' }] } });
      const row = await ctx.db.selectFrom('key_controls').select('archived').where('id', '=', keyControl.id).executeTakeFirstOrThrow();
      expect(row.archived).toBe(false);
    });

    it('POST /audit/checkpoints with a body member is 422', async () => {
      const response = await call(token, 'POST', '/audit/checkpoints', { force: true });
      expect(response.statusCode, response.body).toBe(422);
    });

    it('Content-Type application/json; charset=utf-16 is 415; charset=utf-8 is accepted', async () => {
      const send = (contentType: string) =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/v1/admin/legal-entities',
          headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
          payload: JSON.stringify({ name: `Charset ${contentType}` }),
        });
      const utf16 = await send('application/json; charset=utf-16');
      expect(utf16.statusCode, utf16.body).toBe(415);
      expect(utf16.json().code).toBe('UNSUPPORTED_MEDIA_TYPE');
      const utf8 = await send('application/json; charset=UTF-8');
      expect(utf8.statusCode, utf8.body).toBe(201);
    });
  });

  describe("6. the service's role cannot rewrite appetite history or the chain heads", () => {
    it.each([
      ['update risk_appetite_history', sql`update risk_appetite_history set reason = 'rewritten'`],
      ['delete risk_appetite_history', sql`delete from risk_appetite_history`],
      ['delete audit_chain_heads', sql`delete from audit_chain_heads`],
      ['move a chain head back', sql`update audit_chain_heads set last_seq = 0`],
    ])('%s is refused', async (_name, statement) => {
      await expect(statement.execute(ctx.database.db)).rejects.toMatchObject({ code: '42501' });
    });
  });

  describe('7. archiving a control is recorded as a delete (2.9)', () => {
    it('key control and the sub-controls archived with it', async () => {
      const parent = await createKeyControl(ctx, enterpriseId);
      const child = await createSubControl(ctx, enterpriseId, { keyControlId: parent.id, name: 'Child' });
      const response = await call(token, 'POST', `/controls/key-controls/${parent.id}/archive`);
      expect(response.statusCode, response.body).toBe(200);
      const entries = await ctx.db.selectFrom('audit_log').select(['entity_id', 'action_type']).where('entity_id', 'in', [parent.id, child.id]).execute();
      expect(entries).toHaveLength(2);
      expect(entries.every((entry) => entry.action_type === 'delete')).toBe(true);
    });

    it('sub-control', async () => {
      const alone = await createSubControl(ctx, enterpriseId, { keyControlId: keyControl.id, name: 'Alone' });
      const response = await call(token, 'POST', `/controls/sub-controls/${alone.id}/archive`);
      expect(response.statusCode, response.body).toBe(200);
      const entry = await ctx.db.selectFrom('audit_log').select('action_type').where('entity_id', '=', alone.id).executeTakeFirstOrThrow();
      expect(entry.action_type).toBe('delete');
    });
  });
});
